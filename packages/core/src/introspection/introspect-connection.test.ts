import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../test/support/scratch-database';
import { ensureUser } from '../accounts/users';
import { loadSettings } from '../config';
import { createConnection } from '../connections/connection-service';
import { LocalKeyFileProvider } from '../crypto/local-key-file-provider';
import type { Embedder } from '../embeddings/embedder';
import { HashingEmbedder } from '../embeddings/hashing-embedder';
import { AppError } from '../errors/app-error';
import { migrate } from '../store/migrate';
import { serviceMigrations } from '../store/migrations/index';
import { PgliteStore } from '../store/pglite-store';
import { systemClock } from '../util/clock';
import { ensureSnapshot, introspectConnection, type IntrospectionDeps } from './introspect-connection';
import { buildSchemaChunks } from './schema-chunk-text';
import { getLatestSnapshot, getSnapshot, saveSnapshot } from './snapshot-store';
import { SNAPSHOT_VERSION } from './schema-model/schema-model';

describe('introspectConnection', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let home: string;
  let store: PgliteStore;
  let deps: IntrospectionDeps;
  let userId: string;
  const role = `intro_one_${randomBytes(4).toString('hex')}`;
  /** The scratch database as its admin, or as `user` (password pw). */
  const connectAs = (user?: string): string => {
    const u = new URL(db.url);
    if (user) {
      u.username = user;
      u.password = 'pw';
    }
    u.search = '?sslmode=disable';
    return u.toString();
  };
  const register = async (connectionString: string) =>
    (await createConnection(deps, userId, { name: `c-${randomBytes(3).toString('hex')}`, dbType: 'postgresql_local', connectionString }, { skipProbe: true }))
      .id;
  const chunkCount = async (connectionId: string): Promise<number> =>
    (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_chunks WHERE connection_id = $1', [connectionId])).rows[0]!.n;

  beforeAll(async () => {
    db = await createScratchDatabase('introconn');
    await sql(
      db.url,
      `
      CREATE TABLE customers (id bigint PRIMARY KEY, email text NOT NULL UNIQUE);
      CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint REFERENCES customers (id), total numeric(12,2) DEFAULT 0);
      COMMENT ON TABLE orders IS 'Bestellungen: Größe, "quoted", {braces}, back\\slash';
      CREATE ROLE ${role} LOGIN PASSWORD 'pw' CONNECTION LIMIT 1;
      GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role};`,
    );
    home = await mkdtemp(path.join(tmpdir(), 'dbops-introconn-'));
    store = await PgliteStore.open();
    await migrate(store, serviceMigrations);
    deps = {
      store,
      settings: loadSettings({ DBOPS_HOME: home }),
      clock: systemClock,
      keyProvider: new LocalKeyFileProvider(home),
      embedder: new HashingEmbedder(),
    };
    userId = await ensureUser(store, 'introconn', 'introconn');
  });
  afterAll(async () => {
    await store.close();
    await rm(home, { recursive: true, force: true });
    await db.drop();
    await sql(db.url.replace(/\/[^/]*$/, '/postgres'), `DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
  });

  it('reads the same snapshot over one connection when the role may open only one', async () => {
    const admin = await introspectConnection(deps, userId, await register(connectAs()));
    const limited = await register(connectAs(role));
    const snapshot = await introspectConnection(deps, userId, limited);
    // The same schema; only whether the reading role is a superuser differs (the sandbox reads it).
    const { snapshot_id: _a, connection_id: _b, introspected_at: _c, role_superuser: limitedSuper, ...content } = snapshot;
    const { snapshot_id: _d, connection_id: _e, introspected_at: _f, role_superuser: adminSuper, ...expected } = admin;
    expect(content).toEqual(expected);
    expect([adminSuper, limitedSuper]).toEqual([true, false]);
    expect(snapshot.tables.map((t) => t.name)).toEqual(['customers', 'orders']);
    expect(await getSnapshot(store, userId, snapshot.snapshot_id)).toEqual(snapshot);
    expect(await chunkCount(limited)).toBe(2);
  });

  it('closes its connections once their transactions are over', async () => {
    await introspectConnection(deps, userId, await register(connectAs()));
    const open = async (): Promise<number> =>
      (
        await sql<{ n: number }>(
          db.url,
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'dbops-introspection' AND datname = current_database()`,
        )
      )[0]!.n;
    const deadline = Date.now() + 3000;
    while ((await open()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await open()).toBe(0);
  });

  it('stores each table chunk with its text, hash and vector exactly', async () => {
    const id = await register(connectAs());
    const snapshot = await introspectConnection(deps, userId, id);
    const rows = await store.query<{ table_name: string; content: string; content_sha256: string; embedding: string; snapshot_id: string }>(
      'SELECT table_name, content, content_sha256, embedding::text AS embedding, snapshot_id FROM schema_chunks WHERE connection_id = $1 ORDER BY table_name',
      [id],
    );
    const chunks = buildSchemaChunks(snapshot);
    const vectors = await deps.embedder.embed(chunks.map((c) => c.content));
    expect(rows.rows.map((r) => r.content)).toEqual(chunks.map((c) => c.content));
    expect(rows.rows[1]!.content).toContain('Bestellungen: Größe, "quoted", {braces}, back\\slash');
    expect(rows.rows.map((r) => r.content_sha256)).toEqual(chunks.map((c) => createHash('sha256').update(c.content).digest('hex')));
    // float4 as stored: each stored value is the float32 nearest the embedder's.
    expect(rows.rows.map((r) => (JSON.parse(r.embedding) as number[]).map(Math.fround))).toEqual(vectors.map((v) => v.map(Math.fround)));
    expect(rows.rows.every((r) => r.snapshot_id === snapshot.snapshot_id)).toBe(true);
  });

  it('introspects again when the latest snapshot predates search_path, and reuses a current one', async () => {
    const id = await register(connectAs());
    const current = await introspectConnection(deps, userId, id);
    expect(current.search_path).toEqual(['public']);
    expect((await ensureSnapshot(deps, userId, id)).snapshot_id).toBe(current.snapshot_id);
    // A snapshot stored before the field existed.
    const { search_path: _omitted, ...old } = current;
    await saveSnapshot(store, userId, { ...old, snapshot_id: crypto.randomUUID(), introspected_at: new Date().toISOString() }, 1);
    expect((await getLatestSnapshot(store, userId, id))?.search_path).toBeUndefined();
    const fresh = await ensureSnapshot(deps, userId, id);
    expect(fresh.search_path).toEqual(['public']);
    expect((await getLatestSnapshot(store, userId, id))?.snapshot_id).toBe(fresh.snapshot_id);
  });

  it('introspects again when the latest snapshot predates the schema model (version 1)', async () => {
    const id = await register(connectAs());
    const current = await introspectConnection(deps, userId, id);
    expect(current.snapshot_version).toBe(SNAPSHOT_VERSION);
    expect(current.model?.dependencies).toBeDefined();
    const { snapshot_version: _v, model: _m, ...old } = current;
    await saveSnapshot(store, userId, { ...old, snapshot_id: crypto.randomUUID(), introspected_at: new Date().toISOString() }, 1);
    const stored = await getLatestSnapshot(store, userId, id);
    expect(stored?.snapshot_version).toBeUndefined();
    const fresh = await ensureSnapshot(deps, userId, id);
    expect(fresh.snapshot_id).not.toBe(stored?.snapshot_id);
    expect(fresh.snapshot_version).toBe(SNAPSHOT_VERSION);
    expect((await ensureSnapshot(deps, userId, id)).snapshot_id).toBe(fresh.snapshot_id);
  });

  it('stores the snapshot, and no chunks, when embedding fails', async () => {
    const failing: Embedder = { model: 'failing', dimension: 384, embed: () => Promise.reject(new Error('embeddings API down')) };
    const id = await register(connectAs());
    const error = await introspectConnection({ ...deps, embedder: failing }, userId, id).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    const details = (error as AppError).details as { reason: string; snapshot_id: string };
    expect(details.reason).toBe('embedding_failed');
    expect((await getSnapshot(store, userId, details.snapshot_id))?.tables.length).toBe(2);
    expect(await chunkCount(id)).toBe(0);
  });
});
