import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { connectPg } from '../connections/connect-pg';
import { connectTimeoutMs } from '../connections/connection-settings';
import type { ConnectionTarget } from '../connections/connection-target';
import { isConnectionId } from '../connections/connection-id';
import { loadConnectionTarget } from '../connections/load-connection-target';
import type { KeyProvider } from '../crypto/key-provider';
import type { CoreDeps } from '../deps';
import type { Embedder } from '../embeddings/embedder';
import { AppError, notFound } from '../errors/app-error';
import { startSchemaRead } from './catalog-read';
import { sampleColumnValues, valueSampleSettings } from './column-values';
import type { SchemaContent } from './read-schema';
import { buildSchemaChunks } from './schema-chunk-text';
import { loadStoredChunks, planSchemaChunks, writeSchemaChunks } from './schema-chunks';
import { qualifiedName, type SchemaSnapshot } from './schema-snapshot';
import { encodeSnapshot, getLatestSnapshot, getSharedLatestSnapshot, rememberSnapshot, saveSnapshot } from './snapshot-store';
import { SNAPSHOT_VERSION } from './schema-model/schema-model';

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
const introspectionTimeoutMs = (deps: CoreDeps): number => deps.settings.connections.introspectionTimeoutMs;

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
 * Two connections to the user's database, so the catalog reads run side by side (see
 * startSchemaRead), or one when the second is refused (a connection limit, say). The read
 * starts on whichever connects first; the other joins when it is in (undefined when refused).
 * Fails only when neither connects, with the first connection's error.
 */
async function openIntrospectionClients(target: ConnectionTarget, deps: CoreDeps): Promise<{ primary: pg.Client; secondary: Promise<pg.Client | undefined> }> {
  const options = { applicationName: 'dbops-introspection', connectTimeoutMs: connectTimeoutMs(deps.settings) };
  const attempts = [connectPg(target, options), connectPg(target, options)].map((p) => p.then((c) => c.client));
  let primary: pg.Client;
  try {
    primary = await Promise.any(attempts);
  } catch {
    const [first] = await Promise.allSettled(attempts);
    const reason = first?.status === 'rejected' ? first.reason : undefined;
    // Two sessions that start at once can each count the other against a connection limit and
    // both be refused where one alone is let in: a server's refusal is worth one more try, alone.
    const refused = reason instanceof AppError && reason.details?.reason === 'server_error';
    if (refused) return { primary: (await connectPg(target, options)).client, secondary: Promise.resolve(undefined) };
    throw reason;
  }
  const secondary = Promise.allSettled(attempts).then((all) => all.flatMap((r) => (r.status === 'fulfilled' && r.value !== primary ? [r.value] : [])).at(0));
  return { primary, secondary };
}

/** Where an introspection's time went: `[phase, ms]` in order (bench/introspection.ts prints them). */
export type IntrospectionPhases = Array<[string, number]>;

/** Options of {@link introspectConnection}. */
export interface IntrospectionOptions {
  /** Filled with the phases' wall-clock times when given. */
  phases?: IntrospectionPhases;
}

const lapClock = (phases: IntrospectionPhases | undefined): ((name: string) => void) => {
  if (!phases) return () => undefined;
  let lap = performance.now();
  return (name) => {
    const now = performance.now();
    phases.push([name, now - lap]);
    lap = now;
  };
};

/** Longest wait for the read's ROLLBACKs before its connections are closed regardless. */
const CLOSE_AFTER_MS = 10_000;

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

const embeddingFailure = (snapshotId: string, error: unknown): AppError =>
  new AppError('INTROSPECTION_FAILED', 'The snapshot was stored, but embedding its table descriptions failed; introspect again to retry.', {
    details: { reason: 'embedding_failed', snapshot_id: snapshotId },
    cause: error,
  });

/**
 * Takes a new snapshot of the user's connection: reads every non-system schema, stores the
 * snapshot (history is kept), replaces the connection's table chunks and their embeddings,
 * and sets `last_introspected_at`. NOT_FOUND for another user's or a deactivated connection.
 *
 * The table chunks depend on the schema's structure only, which the catalogs give before the
 * sizes: they are compared with the stored ones and embedded while the server still computes
 * sizes, and written once the snapshot is stored.
 */
export async function introspectConnection(
  deps: IntrospectionDeps,
  userId: string,
  connectionId: string,
  options: IntrospectionOptions = {},
): Promise<SchemaSnapshot> {
  const mark = lapClock(options.phases);
  const target = await loadConnectionTarget(deps, userId, connectionId);
  mark('load target');
  const started = performance.now();
  // Read from the store while the target's server works on the catalogs.
  const stored = loadStoredChunks(deps.store, userId, connectionId);
  stored.catch(() => undefined); // reported through the chunk plan
  const { primary, secondary } = await openIntrospectionClients(target, deps);
  mark('connect (first)');
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    void primary.end().catch(() => undefined);
    void secondary.then((c) => c?.end()).catch(() => undefined);
  };
  const read = startSchemaRead(primary, { secondary, statementTimeoutMs: introspectionTimeoutMs(deps) });
  const chunkPlan = settle(
    read.structure.then(async (structure) => planSchemaChunks(deps.embedder, await stored, { userId, connectionId, chunks: buildSchemaChunks(structure) })),
  );
  // The text columns' values are sampled from the structure on: on the second connection as soon
  // as it has read the structure (while the primary still reads sizes), and on the primary too
  // once its transaction is rolled back (bounded in time; a failure leaves the samples out,
  // never the snapshot).
  const samples = read.structure
    .then((structure) =>
      sampleColumnValues([read.secondaryFree, read.done.then(() => primary)], structure.tables, valueSampleSettings(deps.settings.textToSql)),
    )
    .catch(() => []);
  let content: SchemaContent;
  try {
    content = await read.content;
  } catch (error) {
    close(); // at once: the other connection may still be reading
    throw introspectionFailure(error);
  }
  mark('catalog read');
  // Closed once the samples are in (after every transaction is rolled back: ending a session
  // mid-transaction makes the server log it); at the latest after a few seconds.
  const valueSamples = await samples;
  await read.done;
  mark('value samples');
  close();
  setTimeout(close, CLOSE_AFTER_MS).unref();
  const snapshot: SchemaSnapshot = {
    snapshot_id: randomUUID(),
    connection_id: connectionId,
    introspected_at: deps.clock.now().toISOString(),
    ...content,
    ...(valueSamples.length > 0 ? { value_samples: valueSamples } : {}),
  };
  const body = await encodeSnapshot(snapshot);
  await deps.store.transaction(async (tx) => {
    await saveSnapshot(tx, userId, snapshot, performance.now() - started, body);
    await tx.query('UPDATE connections SET last_introspected_at = $3 WHERE id = $1 AND user_id = $2', [connectionId, userId, snapshot.introspected_at]);
  });
  mark('store snapshot');
  // After the snapshot is stored: a failing embeddings API must not lose the snapshot, and the
  // next introspection retries exactly the chunks that are still missing or stale.
  const plan = await chunkPlan;
  mark('chunk plan (wait)');
  if (!plan.ok) throw embeddingFailure(snapshot.snapshot_id, plan.error);
  try {
    await writeSchemaChunks(deps.store, plan.value, snapshot.snapshot_id);
  } catch (error) {
    throw embeddingFailure(snapshot.snapshot_id, error);
  }
  mark('write chunks');
  return snapshot;
}

/**
 * The latest snapshot of the user's active connection, introspecting first when there is
 * none, or when the latest predates `search_path` in snapshots (without it, unqualified names
 * of a managed database would resolve to public) or the schema model (`SNAPSHOT_VERSION`:
 * without it, the sandbox cannot rebuild domains, functions, triggers and the rest). NOT_FOUND for another user's or a
 * deactivated connection.
 */
export async function ensureSnapshot(
  deps: IntrospectionDeps,
  userId: string,
  connectionId: string,
  /**
   * `copy` (default): a snapshot of the caller's own, which it may annotate. `shared`: the frozen
   * instance this process keeps (`getSharedLatestSnapshot`), for a caller that only reads it.
   */
  read: 'copy' | 'shared' = 'copy',
): Promise<SchemaSnapshot> {
  if (!isConnectionId(connectionId)) throw notFound('Connection');
  const active = await deps.store.query('SELECT 1 FROM connections WHERE id = $1 AND user_id = $2 AND is_active', [connectionId, userId]);
  if (active.rows.length === 0) throw notFound('Connection');
  const latest = await (read === 'shared' ? getSharedLatestSnapshot : getLatestSnapshot)(deps.store, userId, connectionId);
  const current = latest && latest.search_path !== undefined && (latest.snapshot_version ?? 1) >= SNAPSHOT_VERSION;
  if (current) return latest;
  const fresh = await introspectConnection(deps, userId, connectionId);
  return read === 'shared' ? rememberSnapshot(fresh) : fresh;
}
