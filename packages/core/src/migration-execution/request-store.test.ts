import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUser } from '../accounts/users';
import { migrate } from '../store/migrate';
import { serviceMigrations } from '../store/migrations/index';
import { PgliteStore } from '../store/pglite-store';
import { PgStore } from '../store/pg-store';
import { foundationMigrations } from '../store/migrations/foundation';
import { executionMigrations } from '../store/migrations/execution';
import { createScratchDatabase } from '../../../../test/support/scratch-database';
import { claimRequest, createOrReplayRequest, expireStaleRequests, finishRequest, getRequest, recordApplied, renewLease, setProgress } from './request-store';

const LEASE = 10_000;
const PENDING = 60_000;

describe('migration request store', () => {
  let store: PgliteStore;
  let userId: string;
  const t0 = new Date('2026-11-22T00:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  beforeAll(async () => {
    store = await PgliteStore.open();
    await migrate(store, serviceMigrations);
    userId = await ensureUser(store, 'test', 'owner');
  });
  afterAll(() => store.close());

  const newConnection = async (): Promise<string> => {
    const id = randomUUID();
    await store.query(
      `INSERT INTO connections (id, user_id, name, db_type, host, port, database_name, sslmode, secret_ciphertext, encrypted_data_key, key_provider, key_id)
       VALUES ($1, $2, 'c', 'postgresql_local', 'h', 5432, 'd', 'disable', '\\x00', '\\x00', 'test', 'k')`,
      [id, userId],
    );
    return id;
  };
  const create = (connectionId: string, nonce = randomUUID(), now = t0) =>
    createOrReplayRequest(store, { userId, connectionId, nonce, sql: 'SELECT 1', sqlSha256: 'x', now });

  it('lets exactly one delivery claim a pending request', async () => {
    const conn = await newConnection();
    const { row } = await create(conn);
    const claims = await Promise.all([1, 2, 3].map(() => claimRequest(store, row.id, t0, LEASE)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimRequest(store, row.id, t0, LEASE)).toBeNull();
  });

  it('fails an executing request whose lease expired, with what it knows, and never re-runs it', async () => {
    const conn = await newConnection();
    const { row } = await create(conn);
    const claim = (await claimRequest(store, row.id, t0, LEASE))!;
    await recordApplied(store, claim, [{ statement_index: 0, sql: 'CREATE INDEX CONCURRENTLY i ON t (a)', transactional: false }]);
    await setProgress(store, claim, 'statement 2 of 2: ALTER TABLE t ...', 1, at(1000), LEASE);
    expect(await renewLease(store, claim, at(5000), LEASE)).toBe(true);

    expect(await expireStaleRequests(store, at(14_000), PENDING, { connectionId: conn })).toBe(0); // lease runs to 15 s
    expect(await expireStaleRequests(store, at(15_001), PENDING, { connectionId: conn })).toBe(1);
    const failed = await getRequest(store, userId, row.id);
    expect(failed).toMatchObject({ status: 'failed', progress: null, completed_at: at(15_001).toISOString() });
    expect(failed.error).toMatchObject({
      code: 'EXECUTOR_LOST',
      statement_index: 1,
      applied_non_transactional: [{ statement_index: 0, sql: 'CREATE INDEX CONCURRENTLY i ON t (a)' }],
      committed_transactional: [],
    });
    // The lost executor can neither renew nor overwrite the verdict, and nobody can claim it again.
    expect(await renewLease(store, claim, at(16_000), LEASE)).toBe(false);
    expect(
      await finishRequest(
        store,
        claim,
        { status: 'completed', result: { tables_added: [], tables_removed: [], columns_added: [], execution_time_ms: 1 } },
        at(16_000),
      ),
    ).toBe(false);
    expect(await claimRequest(store, row.id, at(16_000), LEASE)).toBeNull();
    expect((await getRequest(store, userId, row.id)).status).toBe('failed');
    // The connection is free again.
    expect((await create(conn, randomUUID(), at(17_000))).created).toBe(true);
  });

  it('fails a request no executor picked up within the pending timeout', async () => {
    const conn = await newConnection();
    const { row } = await create(conn);
    expect(await expireStaleRequests(store, at(PENDING - 1), PENDING, { connectionId: conn })).toBe(0);
    expect(await expireStaleRequests(store, at(PENDING + 1), PENDING, { connectionId: conn })).toBe(1);
    expect((await getRequest(store, userId, row.id)).error).toMatchObject({ code: 'NOT_STARTED' });
  });

  it('refuses a second active request on a connection but replays a used nonce', async () => {
    const conn = await newConnection();
    const nonce = randomUUID();
    const first = await create(conn, nonce);
    expect(first.created).toBe(true);
    await expect(create(conn)).rejects.toMatchObject({ code: 'MIGRATION_IN_PROGRESS' });
    const replay = await create(conn, nonce);
    expect(replay).toMatchObject({ created: false, row: { id: first.row.id } });
  });
});

describe('migration request store under real concurrency (PostgreSQL server)', () => {
  let store: PgStore;
  let db: { url: string; drop(): Promise<void> };
  let userId: string;

  beforeAll(async () => {
    db = await createScratchDatabase('mreq');
    store = new PgStore({ connectionString: db.url, max: 20 });
    // The server may lack pgvector (needed by other features' tables): apply the foundation and a
    // minimal connections table, then the execution schema exactly as shipped.
    await migrate(store, foundationMigrations);
    await store.exec('CREATE TABLE connections (id uuid PRIMARY KEY)');
    await migrate(store, executionMigrations);
    userId = await ensureUser(store, 'test', 'owner');
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  const newConnection = async (): Promise<string> => {
    const id = randomUUID();
    await store.query('INSERT INTO connections (id) VALUES ($1)', [id]);
    return id;
  };
  const create = (connectionId: string, nonce: string) =>
    createOrReplayRequest(store, { userId, connectionId, nonce, sql: 'SELECT 1', sqlSha256: 'x', now: new Date() });

  it('collapses 20 concurrent replays of one token onto one request', async () => {
    const conn = await newConnection();
    const nonce = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => create(conn, nonce)));
    expect(new Set(results.map((r) => r.row.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await store.query('SELECT 1 FROM migration_requests WHERE connection_id = $1', [conn]);
    expect(rows.rowCount).toBe(1);
  });

  it('accepts exactly one of 20 concurrent different tokens on a connection', async () => {
    const conn = await newConnection();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => create(conn, randomUUID())));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'MIGRATION_IN_PROGRESS' });
  });

  it('mixes replays and rivals: one request wins and nothing else is recorded, in any interleaving', async () => {
    for (let round = 0; round < 5; round++) {
      const conn = await newConnection();
      const nonce = randomUUID();
      const calls = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? create(conn, nonce) : create(conn, randomUUID())));
      const results = await Promise.allSettled(calls);
      const ok = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.row.id] : []));
      expect(new Set(ok).size).toBe(1);
      const rows = await store.query('SELECT token_nonce FROM migration_requests WHERE connection_id = $1', [conn]);
      expect(rows.rowCount).toBe(1);
    }
  });

  it('lets exactly one of concurrent deliveries claim the request', async () => {
    const conn = await newConnection();
    const { row } = await create(conn, randomUUID());
    const claims = await Promise.all(Array.from({ length: 10 }, () => claimRequest(store, row.id, new Date(), LEASE)));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});
