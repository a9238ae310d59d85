import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';
import type { Queryable } from '../store/store';
import type { SchemaSnapshot } from './schema-snapshot';
import { isConnectionId } from '../connections/connection-id';
import { deepFreeze } from '../util/deep-freeze';

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);

/**
 * The stored form of a snapshot: its JSON text, zlib-deflated (migration 0105). Level 1 is
 * ~3 ms for a 3 MB snapshot and shrinks it ~40x; zlib runs on libuv's thread pool, so the event
 * loop goes on meanwhile.
 */
export const encodeSnapshot = (snapshot: SchemaSnapshot): Promise<Buffer> => deflateAsync(JSON.stringify(snapshot), { level: 1 });

/** Stores one snapshot (history is kept: every introspection adds a row). `body` is {@link encodeSnapshot}'s, when already made. */
export async function saveSnapshot(db: Queryable, userId: string, snapshot: SchemaSnapshot, durationMs: number, body?: Buffer): Promise<void> {
  await db.query(
    `INSERT INTO schema_snapshots (id, connection_id, user_id, introspected_at, table_count, duration_ms, snapshot_deflated)
     VALUES ($1, $2, $3, $4, $5, $6, $7::bytea)`,
    [
      snapshot.snapshot_id,
      snapshot.connection_id,
      userId,
      snapshot.introspected_at,
      snapshot.tables.length,
      Math.round(durationMs),
      body ?? (await encodeSnapshot(snapshot)),
    ],
  );
}

/** Columns that hold a snapshot's body: `snapshot` (json, before migration 0105) or `snapshot_deflated`. */
const BODY = 'snapshot, snapshot_deflated';

interface BodyRow {
  snapshot: unknown;
  snapshot_deflated: Uint8Array | null;
}

async function parse(row: BodyRow): Promise<SchemaSnapshot> {
  if (row.snapshot_deflated) {
    const b = row.snapshot_deflated;
    // PGlite answers bytea as a Uint8Array, pg as a Buffer; both are read in place.
    const text = (await inflateAsync(Buffer.from(b.buffer, b.byteOffset, b.byteLength))).toString('utf8');
    return JSON.parse(text) as SchemaSnapshot;
  }
  const v = row.snapshot;
  return typeof v === 'string' ? (JSON.parse(v) as SchemaSnapshot) : (v as SchemaSnapshot);
}

/**
 * Parsed snapshots by id. Snapshots never change once stored and ids are random, so a hit is
 * always right; the id is looked up with the user filter first, so the cache never widens access.
 * Analyses read the latest snapshot on every request, and a 1,000-table snapshot is megabytes
 * of JSON, so this saves a large read and parse per request. Entries are frozen: readers that
 * share them ({@link getSharedLatestSnapshot}) cannot change what the next one reads.
 */
const cache = new Map<string, SchemaSnapshot>();
const CACHE_ENTRIES = 8;

const remember = (s: SchemaSnapshot): SchemaSnapshot => {
  cache.delete(s.snapshot_id);
  cache.set(s.snapshot_id, deepFreeze(s));
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return s;
};

/**
 * Keeps a snapshot just stored as a later read of the store would return it (its JSON text
 * parsed), so the next reader of the connection's latest snapshot in this process finds it
 * without reading and parsing the stored body; returns that shared, frozen copy.
 */
export const rememberSnapshot = (snapshot: SchemaSnapshot): SchemaSnapshot => remember(JSON.parse(JSON.stringify(snapshot)) as SchemaSnapshot);

/** The cached, frozen instance of the user's connection's newest snapshot (read and cached first when missing). */
async function latestShared(db: Queryable, userId: string, connectionId: string): Promise<SchemaSnapshot | null> {
  if (!isConnectionId(connectionId)) return null;
  const latest = await db.query<{ id: string }>(
    `SELECT id FROM schema_snapshots WHERE connection_id = $1 AND user_id = $2
     ORDER BY introspected_at DESC, id DESC LIMIT 1`,
    [connectionId, userId],
  );
  const id = latest.rows[0]?.id;
  if (!id) return null;
  const hit = cache.get(id);
  if (hit) return hit;
  const res = await db.query<BodyRow>(`SELECT ${BODY} FROM schema_snapshots WHERE id = $1`, [id]);
  return res.rows[0] ? remember(await parse(res.rows[0])) : null;
}

/** The newest snapshot of the user's connection, or null when it was never introspected (or is not theirs). */
export async function getLatestSnapshot(db: Queryable, userId: string, connectionId: string): Promise<SchemaSnapshot | null> {
  const shared = await latestShared(db, userId, connectionId);
  // A copy, so a caller that annotates its snapshot cannot change what the next caller reads.
  return shared && structuredClone(shared);
}

/**
 * The same snapshot without the copy: the one frozen instance this process keeps of it, for a
 * reader that only reads it (an analysis). Every request of that reader then gets the same
 * object, so what is derived from it once (the clone's DDL and cache key) is found again, and
 * the copy of a large snapshot (4 ms on a 180-table one) is saved.
 */
export const getSharedLatestSnapshot = latestShared;

/** One snapshot by id, for reports that cite the snapshot they used; null when not the user's. */
export async function getSnapshot(db: Queryable, userId: string, snapshotId: string): Promise<SchemaSnapshot | null> {
  if (!isConnectionId(snapshotId)) return null;
  const res = await db.query<BodyRow>(`SELECT ${BODY} FROM schema_snapshots WHERE id = $1 AND user_id = $2`, [snapshotId, userId]);
  return res.rows[0] ? parse(res.rows[0]) : null;
}

/** Snapshot history of a connection, newest first, without the bodies. */
export async function listSnapshots(
  db: Queryable,
  userId: string,
  connectionId: string,
): Promise<Array<{ snapshot_id: string; introspected_at: string; table_count: number }>> {
  if (!isConnectionId(connectionId)) return [];
  const res = await db.query<{ id: string; introspected_at: unknown; table_count: number }>(
    `SELECT id, introspected_at, table_count FROM schema_snapshots WHERE connection_id = $1 AND user_id = $2
     ORDER BY introspected_at DESC, id DESC`,
    [connectionId, userId],
  );
  return res.rows.map((r) => ({ snapshot_id: r.id, introspected_at: new Date(r.introspected_at as string).toISOString(), table_count: Number(r.table_count) }));
}
