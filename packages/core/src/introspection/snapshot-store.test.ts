import { randomUUID } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUser } from '../accounts/users';
import { migrate } from '../store/migrate';
import { serviceMigrations } from '../store/migrations/index';
import { PgliteStore } from '../store/pglite-store';
import type { SchemaSnapshot } from './schema-snapshot';
import { getLatestSnapshot, getSharedLatestSnapshot, getSnapshot, rememberSnapshot, saveSnapshot } from './snapshot-store';

const snapshotOf = (connectionId: string, introspectedAt: string, comment: string): SchemaSnapshot => ({
  snapshot_id: randomUUID(),
  connection_id: connectionId,
  introspected_at: introspectedAt,
  server_version: '17.6',
  server_version_num: 170006,
  extensions: [{ name: 'plpgsql', version: '1.0', schema: 'pg_catalog' }],
  schemas: ['public'],
  tables: [
    {
      schema: 'public',
      name: 'ünïcödé',
      kind: 'table',
      columns: [],
      primary_key: null,
      constraints: [],
      foreign_keys: [],
      indexes: [],
      row_estimate: 3,
      pages: 1,
      total_bytes: 8192,
      comment,
      partition_of: null,
      partition_bound: null,
      partition_key: null,
      view_definition: null,
    },
  ],
  enums: [],
  sequences: [],
  view_dependencies: [],
});

describe('snapshot store', () => {
  let store: PgliteStore;
  let userId: string;
  let connectionId: string;

  beforeAll(async () => {
    store = await PgliteStore.open();
    await migrate(store, serviceMigrations);
    userId = await ensureUser(store, 'snap', 'snap');
    connectionId = randomUUID();
    await store.query(
      `INSERT INTO connections (id, user_id, name, db_type, host, port, database_name, sslmode, secret_ciphertext, encrypted_data_key, key_provider, key_id)
       VALUES ($1, $2, 'c', 'postgresql', 'h', 5432, 'd', 'disable', '\\x00', '\\x00', 'k', 'k')`,
      [connectionId, userId],
    );
  });
  afterAll(() => store.close());

  it('stores the JSON text deflated and reads back the same snapshot', async () => {
    const s = snapshotOf(connectionId, '2026-01-01T00:00:00.000Z', 'a "quoted" comment, with non-ASCII: ∑');
    await saveSnapshot(store, userId, s, 12.4);
    const row = (
      await store.query<{ snapshot: unknown; snapshot_deflated: Uint8Array; duration_ms: number }>(
        'SELECT snapshot, snapshot_deflated, duration_ms FROM schema_snapshots WHERE id = $1',
        [s.snapshot_id],
      )
    ).rows[0]!;
    expect(row.snapshot).toBeNull();
    expect(row.duration_ms).toBe(12);
    expect(inflateSync(row.snapshot_deflated).toString('utf8')).toBe(JSON.stringify(s));
    expect(await getSnapshot(store, userId, s.snapshot_id)).toEqual(s);
    expect(await getLatestSnapshot(store, userId, connectionId)).toEqual(s);
    expect(await getSnapshot(store, randomUUID(), s.snapshot_id)).toBeNull();
  });

  it('still reads snapshots stored as json before the deflated column existed', async () => {
    const legacy = snapshotOf(connectionId, '2026-02-01T00:00:00.000Z', 'legacy');
    await store.query(
      `INSERT INTO schema_snapshots (id, connection_id, user_id, introspected_at, table_count, duration_ms, snapshot)
       VALUES ($1, $2, $3, $4, 1, 5, $5::json)`,
      [legacy.snapshot_id, connectionId, userId, legacy.introspected_at, JSON.stringify(legacy)],
    );
    expect(await getSnapshot(store, userId, legacy.snapshot_id)).toEqual(legacy);
    expect(await getLatestSnapshot(store, userId, connectionId)).toEqual(legacy);
  });

  it('gives a reader that only reads one frozen instance per snapshot, every other reader a copy of its own, and a newer snapshot once stored', async () => {
    const first = snapshotOf(connectionId, '2026-03-01T00:00:00.000Z', 'shared');
    await saveSnapshot(store, userId, first, 1);
    const shared = await getSharedLatestSnapshot(store, userId, connectionId);
    expect(shared).toEqual(first);
    expect(await getSharedLatestSnapshot(store, userId, connectionId)).toBe(shared);
    expect(Object.isFrozen(shared!.tables[0])).toBe(true);
    expect(() => (shared!.tables as unknown[]).push({})).toThrow(TypeError);
    // A copy is the caller's to annotate: the shared instance does not change with it.
    const copy = (await getLatestSnapshot(store, userId, connectionId))!;
    expect(copy).not.toBe(shared);
    copy.tables[0]!.comment = 'annotated';
    expect(shared!.tables[0]!.comment).toBe('shared');
    expect((await getLatestSnapshot(store, userId, connectionId))!.tables[0]!.comment).toBe('shared');
    // Another user's view: nothing, whatever this process keeps.
    expect(await getSharedLatestSnapshot(store, randomUUID(), connectionId)).toBeNull();
    const second = snapshotOf(connectionId, '2026-03-02T00:00:00.000Z', 'newer');
    await saveSnapshot(store, userId, second, 1);
    expect(await getSharedLatestSnapshot(store, userId, connectionId)).toEqual(second);
  });

  it('keeps a snapshot just stored as a read of the store returns it, so the next reader does not read its body', async () => {
    const stored = { ...snapshotOf(connectionId, '2026-04-01T00:00:00.000Z', 'remembered'), absent: undefined };
    await saveSnapshot(store, userId, stored, 1);
    const kept = rememberSnapshot(stored);
    // As parsed from its JSON text (no undefined members), frozen; the caller's own object stays writable.
    expect(kept).not.toBe(stored);
    expect(kept).toStrictEqual(JSON.parse(JSON.stringify(stored)));
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(stored)).toBe(false);
    // The body read from the store would now say otherwise: the kept instance is what readers get.
    const other = deflateSync(JSON.stringify({ ...stored, tables: [] }));
    await store.query('UPDATE schema_snapshots SET snapshot_deflated = $2 WHERE id = $1', [stored.snapshot_id, other]);
    expect(await getSharedLatestSnapshot(store, userId, connectionId)).toBe(kept);
    expect(await getLatestSnapshot(store, userId, connectionId)).toEqual(kept);
  });

  it('refuses a snapshot row with no body or with both', async () => {
    const insert = (body: string) =>
      store.query(
        `INSERT INTO schema_snapshots (id, connection_id, user_id, introspected_at, table_count, duration_ms, snapshot, snapshot_deflated)
         VALUES ($1, $2, $3, now(), 0, 0, ${body})`,
        [randomUUID(), connectionId, userId],
      );
    await expect(insert(`NULL, NULL`)).rejects.toThrow(/schema_snapshots_one_body/);
    await expect(insert(`'{}'::json, '\\x00'::bytea`)).rejects.toThrow(/schema_snapshots_one_body/);
  });
});
