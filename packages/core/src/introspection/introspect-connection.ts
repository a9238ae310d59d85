import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { connectPg } from '../connections/connect-pg';
import { connectTimeoutMs } from '../connections/connection-settings';
import { isConnectionId } from '../connections/connection-id';
import { loadConnectionTarget } from '../connections/load-connection-target';
import type { KeyProvider } from '../crypto/key-provider';
import type { CoreDeps } from '../deps';
import type { Embedder } from '../embeddings/embedder';
import { AppError, notFound } from '../errors/app-error';
import type { Queryable } from '../store/store';
import { readSchema, type SchemaContent } from './read-schema';
import { buildSchemaChunks } from './schema-chunk-text';
import { syncSchemaChunks } from './schema-chunks';
import { qualifiedName, type SchemaSnapshot } from './schema-snapshot';
import { getLatestSnapshot, saveSnapshot } from './snapshot-store';

/** What introspection needs; `DomainDeps` satisfies it. */
export type IntrospectionDeps = CoreDeps & { keyProvider: KeyProvider; embedder: Embedder };

/** The spec's schema snapshot summary (section 2), the answer of POST .../introspect. */
export interface SnapshotSummary {
  connection_id: string;
  table_count: number;
  /** `schema.name` of every relation in the snapshot. */
  tables: string[];
  snapshot_id: string;
  introspected_at: string;
}

export const summarizeSnapshot = (s: SchemaSnapshot): SnapshotSummary => ({
  connection_id: s.connection_id,
  table_count: s.tables.length,
  tables: s.tables.map(qualifiedName),
  snapshot_id: s.snapshot_id,
  introspected_at: s.introspected_at,
});

/** Statement timeout of the catalog queries (`DBOPS_INTROSPECTION_TIMEOUT_MS`, default 60000). */
const introspectionTimeoutMs = (deps: CoreDeps): number => {
  const n = Number(deps.settings.env.DBOPS_INTROSPECTION_TIMEOUT_MS);
  return Number.isInteger(n) && n > 0 ? n : 60_000;
};

const clientQueryable = (client: pg.Client): Queryable => ({
  async query<R extends object>(sql: string, params: readonly unknown[] = []) {
    const res = await client.query(sql, params as unknown[]);
    return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
  },
});

/**
 * Reads the schema of the user's database in one read-only REPEATABLE READ transaction, so
 * every catalog query sees the same moment.
 */
export async function readTargetSchema(client: pg.Client, statementTimeoutMs?: number): Promise<SchemaContent> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    // SET LOCAL rather than a startup parameter, which transaction poolers (PgBouncer) refuse.
    if (statementTimeoutMs !== undefined) await client.query(`SET LOCAL statement_timeout = ${Math.floor(statementTimeoutMs)}`);
    return await readSchema(clientQueryable(client));
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}

function introspectionFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const e = error as { code?: string; message?: string };
  if (e.code === '57014') {
    return new AppError('INTROSPECTION_FAILED', 'Introspection timed out reading the catalogs.', { details: { reason: 'timeout' } });
  }
  if (e.code === '42501') {
    return new AppError('INTROSPECTION_FAILED', 'Introspection failed: the connection user lacks a privilege it needs to read the catalogs.', {
      details: { reason: 'permission_denied' },
    });
  }
  return new AppError('INTROSPECTION_FAILED', `Introspection failed${e.code ? ` (PostgreSQL error ${e.code})` : ''}.`, {
    details: { reason: 'server_error' },
    cause: error,
  });
}

/**
 * Takes a new snapshot of the user's connection: reads every non-system schema, stores the
 * snapshot (history is kept), replaces the connection's table chunks and their embeddings,
 * and sets `last_introspected_at`. NOT_FOUND for another user's or a deactivated connection.
 */
export async function introspectConnection(deps: IntrospectionDeps, userId: string, connectionId: string): Promise<SchemaSnapshot> {
  const target = await loadConnectionTarget(deps, userId, connectionId);
  const started = performance.now();
  const { client } = await connectPg(target, {
    applicationName: 'dbops-introspection',
    connectTimeoutMs: connectTimeoutMs(deps.settings),
  });
  let content: SchemaContent;
  try {
    content = await readTargetSchema(client, introspectionTimeoutMs(deps));
  } catch (error) {
    throw introspectionFailure(error);
  } finally {
    await client.end().catch(() => undefined);
  }
  const snapshot: SchemaSnapshot = {
    snapshot_id: randomUUID(),
    connection_id: connectionId,
    introspected_at: deps.clock.now().toISOString(),
    ...content,
  };
  await deps.store.transaction(async (tx) => {
    await saveSnapshot(tx, userId, snapshot, performance.now() - started);
    await tx.query('UPDATE connections SET last_introspected_at = $3 WHERE id = $1 AND user_id = $2', [connectionId, userId, snapshot.introspected_at]);
  });
  // After the snapshot is stored: a failing embeddings API must not lose the snapshot, and the
  // next introspection retries exactly the chunks that are still missing or stale.
  try {
    await syncSchemaChunks(deps.store, deps.embedder, { userId, connectionId, snapshotId: snapshot.snapshot_id, chunks: buildSchemaChunks(snapshot) });
  } catch (error) {
    throw new AppError('INTROSPECTION_FAILED', 'The snapshot was stored, but embedding its table descriptions failed; introspect again to retry.', {
      details: { reason: 'embedding_failed', snapshot_id: snapshot.snapshot_id },
      cause: error,
    });
  }
  return snapshot;
}

/**
 * The latest snapshot of the user's active connection, introspecting first when there is
 * none. NOT_FOUND for another user's or a deactivated connection.
 */
export async function ensureSnapshot(deps: IntrospectionDeps, userId: string, connectionId: string): Promise<SchemaSnapshot> {
  if (!isConnectionId(connectionId)) throw notFound('Connection');
  const active = await deps.store.query('SELECT 1 FROM connections WHERE id = $1 AND user_id = $2 AND is_active', [connectionId, userId]);
  if (active.rows.length === 0) throw notFound('Connection');
  return (await getLatestSnapshot(deps.store, userId, connectionId)) ?? introspectConnection(deps, userId, connectionId);
}
