import type { CoreDeps } from '../deps';
import type { KeyProvider } from '../crypto/key-provider';
import { AppError } from '../errors/app-error';
import type { ConnectionTarget } from './connection-target';

/**
 * The caller's active connection with its decrypted connection string; NOT_FOUND for an
 * unknown id, another user's connection or a deactivated one.
 * Owned by the connections issue (#3): this placeholder is replaced by the real implementation.
 */
export async function loadConnectionTarget(_deps: CoreDeps & { keyProvider: KeyProvider }, _userId: string, _connectionId: string): Promise<ConnectionTarget> {
  throw new AppError('NOT_IMPLEMENTED', 'connections are not implemented yet');
}
