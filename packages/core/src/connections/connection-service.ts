import { randomUUID } from 'node:crypto';
import type { KeyProvider } from '../crypto/key-provider';
import type { CoreDeps } from '../deps';
import { AppError, notFound } from '../errors/app-error';
import { encryptConnectionString } from './connection-secret';
import { CONNECTION_VIEW_COLUMNS, type ConnectionView, type ConnectionViewRow, toConnectionView } from './connection-view';
import type { DbType } from './db-types';
import { parseConnectionStringInput } from './parse-registration';
import { probeConnection } from './probe-connection';
import { isConnectionId } from './connection-id';
import { forgetConnectionTarget } from './load-connection-target';

type Deps = CoreDeps & { keyProvider: KeyProvider };

/** Input of {@link createConnection}. */
export interface NewConnection {
  name: string;
  dbType: DbType;
  /** Plaintext; encrypted before it is stored and never returned. */
  connectionString: string;
}

/**
 * Registers a connection: validates the string, applies the host policy, checks that the
 * database answers, encrypts the string under a fresh data key and stores the record.
 * `skipProbe` is for callers that just created the database themselves (provisioning).
 */
export async function createConnection(deps: Deps, userId: string, input: NewConnection, options: { skipProbe?: boolean } = {}): Promise<ConnectionView> {
  const parsed = parseConnectionStringInput(input.connectionString);
  const { preferPlain } = options.skipProbe ? { preferPlain: false } : await probeConnection(deps.settings, input.connectionString, parsed);
  const id = randomUUID();
  const secret = await encryptConnectionString(deps.keyProvider, id, userId, input.connectionString);
  const now = deps.clock.now();
  const res = await deps.store.query<ConnectionViewRow>(
    `INSERT INTO connections (id, user_id, name, db_type, host, port, database_name, sslmode, prefer_plain,
       secret_ciphertext, encrypted_data_key, key_provider, key_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
     RETURNING ${CONNECTION_VIEW_COLUMNS}`,
    [
      id,
      userId,
      input.name,
      input.dbType,
      parsed.host,
      parsed.port,
      parsed.database,
      parsed.sslmode,
      preferPlain,
      secret.ciphertext,
      secret.encryptedDataKey,
      deps.keyProvider.name,
      secret.keyId,
      now,
    ],
  );
  return toConnectionView(res.rows[0] as ConnectionViewRow);
}

/** The caller's connections, oldest first; deactivated ones only when asked. */
export async function listConnections(deps: CoreDeps, userId: string, options: { includeInactive?: boolean } = {}): Promise<ConnectionView[]> {
  const res = await deps.store.query<ConnectionViewRow>(
    `SELECT ${CONNECTION_VIEW_COLUMNS} FROM connections
     WHERE user_id = $1 AND ($2 OR is_active) ORDER BY created_at, id`,
    [userId, options.includeInactive ?? false],
  );
  return res.rows.map(toConnectionView);
}

/** One of the caller's connections (active or not); NOT_FOUND for anyone else's. */
export async function getConnection(deps: CoreDeps, userId: string, connectionId: string): Promise<ConnectionView> {
  if (!isConnectionId(connectionId)) throw notFound('Connection');
  const res = await deps.store.query<ConnectionViewRow>(`SELECT ${CONNECTION_VIEW_COLUMNS} FROM connections WHERE id = $1 AND user_id = $2`, [
    connectionId,
    userId,
  ]);
  if (!res.rows[0]) throw notFound('Connection');
  return toConnectionView(res.rows[0]);
}

/** Input of {@link updateConnection}; absent fields stay as they are. */
export interface ConnectionChanges {
  name?: string;
  dbType?: DbType;
  connectionString?: string;
}

/**
 * Renames or re-points an active connection. A new connection string goes through the same
 * checks as registration and is encrypted under a new data key.
 */
export async function updateConnection(deps: Deps, userId: string, connectionId: string, changes: ConnectionChanges): Promise<ConnectionView> {
  const current = await getConnection(deps, userId, connectionId);
  if (!current.is_active) throw new AppError('CONNECTION_INACTIVE', 'Connection is deactivated and cannot be changed.');
  const sets: string[] = [];
  const params: unknown[] = [connectionId, userId];
  const set = (column: string, value: unknown): void => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (changes.name !== undefined) set('name', changes.name);
  if (changes.dbType !== undefined) set('db_type', changes.dbType);
  if (changes.connectionString !== undefined) {
    const parsed = parseConnectionStringInput(changes.connectionString);
    const { preferPlain } = await probeConnection(deps.settings, changes.connectionString, parsed);
    const secret = await encryptConnectionString(deps.keyProvider, connectionId, userId, changes.connectionString);
    set('host', parsed.host);
    set('port', parsed.port);
    set('database_name', parsed.database);
    set('sslmode', parsed.sslmode);
    set('prefer_plain', preferPlain);
    set('secret_ciphertext', secret.ciphertext);
    set('encrypted_data_key', secret.encryptedDataKey);
    set('key_provider', deps.keyProvider.name);
    set('key_id', secret.keyId);
  }
  if (sets.length === 0) return current;
  set('updated_at', deps.clock.now());
  const res = await deps.store.query<ConnectionViewRow>(
    `UPDATE connections SET ${sets.join(', ')} WHERE id = $1 AND user_id = $2 AND is_active RETURNING ${CONNECTION_VIEW_COLUMNS}`,
    params,
  );
  // After the write: a load that read the old row meanwhile is not kept either (target-cache.ts).
  forgetConnectionTarget(connectionId);
  if (!res.rows[0]) throw new AppError('CONNECTION_INACTIVE', 'Connection is deactivated and cannot be changed.');
  return toConnectionView(res.rows[0]);
}

/**
 * Deactivates a connection (soft delete): every endpoint that reaches the database answers
 * 404 for it from then on. Deactivating twice is not an error.
 */
export async function deactivateConnection(deps: CoreDeps, userId: string, connectionId: string): Promise<ConnectionView> {
  if (!isConnectionId(connectionId)) throw notFound('Connection');
  const res = await deps.store.query<ConnectionViewRow>(
    `UPDATE connections SET is_active = false, updated_at = CASE WHEN is_active THEN $3 ELSE updated_at END
     WHERE id = $1 AND user_id = $2 RETURNING ${CONNECTION_VIEW_COLUMNS}`,
    [connectionId, userId, deps.clock.now()],
  );
  forgetConnectionTarget(connectionId);
  if (!res.rows[0]) throw notFound('Connection');
  return toConnectionView(res.rows[0]);
}
