import { getConnection } from '../connections/connection-service';
import type { CoreDeps } from '../deps';
import { notFound } from '../errors/app-error';

/**
 * NOT_FOUND unless the connection is the caller's; with `active`, also when it is deactivated.
 * Documents never need the connection string, so nothing is decrypted here.
 */
export async function requireDocumentConnection(deps: CoreDeps, userId: string, connectionId: string, options: { active: boolean }): Promise<void> {
  const connection = await getConnection(deps, userId, connectionId);
  if (options.active && !connection.is_active) throw notFound('Connection');
}
