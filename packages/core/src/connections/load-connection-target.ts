import type { CoreDeps } from '../deps';
import type { KeyProvider } from '../crypto/key-provider';
import { notFound } from '../errors/app-error';
import type { ConnectionTarget, SslMode } from './connection-target';
import { decryptConnectionString } from './connection-secret';
import { assertHostAllowed, hostPolicy } from './host-policy';
import { isConnectionId } from './connection-id';
import { SecretCache } from './secret-cache';
import { TargetCache } from './target-cache';

let cache: SecretCache | undefined;
const secretCache = (ttlMs: number): SecretCache => (cache ??= new SecretCache(ttlMs));
let targets: TargetCache | undefined;

/** Called when a connection changes or is deactivated in this process: its next use reads it again. */
export function forgetConnectionTarget(connectionId: string): void {
  targets?.forget(connectionId);
}

interface TargetRow {
  id: string;
  user_id: string;
  name: string;
  db_type: string;
  host: string;
  port: number;
  database_name: string;
  sslmode: SslMode;
  prefer_plain: boolean;
  secret_ciphertext: Buffer | Uint8Array;
  encrypted_data_key: Buffer | Uint8Array;
}

/**
 * The caller's active connection with its decrypted connection string; NOT_FOUND for an
 * unknown id, another user's connection or a deactivated one. The host policy is applied
 * again here, since a name may resolve elsewhere than it did at registration.
 */
export async function loadConnectionTarget(deps: CoreDeps & { keyProvider: KeyProvider }, userId: string, connectionId: string): Promise<ConnectionTarget> {
  if (!isConnectionId(connectionId)) throw notFound('Connection');
  const ttlMs = deps.settings.connections.targetCacheTtlMs;
  if (targets?.ttlMs !== ttlMs) targets = new TargetCache(ttlMs);
  const target = await targets.get(userId, connectionId, deps.clock.now().getTime(), () => readTarget(deps, userId, connectionId));
  // Checked on every use, cached or not: a name may resolve elsewhere than it did before.
  await assertHostAllowed(hostPolicy(deps.settings), target.host);
  return target;
}

async function readTarget(deps: CoreDeps & { keyProvider: KeyProvider }, userId: string, connectionId: string): Promise<ConnectionTarget> {
  const res = await deps.store.query<TargetRow>(
    `SELECT id, user_id, name, db_type, host, port, database_name, sslmode, prefer_plain, secret_ciphertext, encrypted_data_key
     FROM connections WHERE id = $1 AND user_id = $2 AND is_active`,
    [connectionId, userId],
  );
  const row = res.rows[0];
  if (!row) throw notFound('Connection');
  const record = { ciphertext: Buffer.from(row.secret_ciphertext), encryptedDataKey: Buffer.from(row.encrypted_data_key) };
  const connectionString = await secretCache(deps.settings.connections.secretCacheTtlMs).get(
    SecretCache.keyOf([deps.keyProvider.name, row.id, row.user_id, record.ciphertext, record.encryptedDataKey]),
    deps.clock.now().getTime(),
    () => decryptConnectionString(deps.keyProvider, row.id, row.user_id, record),
  );
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    dbType: row.db_type,
    connectionString,
    sslmode: row.sslmode,
    host: row.host,
    port: Number(row.port),
    database: row.database_name,
    isActive: true,
    preferPlain: row.prefer_plain,
  };
}
