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
import { storeBatchLedger } from './batch-ledger';
import {
  claimRequest,
  createOrReplayRequest,
  expireStaleRequests,
  finishRequest,
  getRequest,
  MAX_RESUMES,
  recordApplied,
  renewLease,
  resumeLostRequests,
  setProgress,
} from './request-store';

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

  it('puts a request lost inside a batched step back to pending, resumable with what it applied, a few times at most', async () => {
    const conn = await newConnection();
    const { row } = await create(conn);
    let claim = (await claimRequest(store, row.id, t0, LEASE))!;
    expect(claim.resume).toBeNull();
    await recordApplied(store, claim, [{ statement_index: 0, sql: 'ALTER TABLE t ADD COLUMN b int', transactional: true }]);
    await setProgress(store, claim, 'statement 2 of 2: batch 1', 1, at(1000), LEASE);
    await storeBatchLedger(store, claim, { now: () => at(1000), leaseMs: LEASE }).start(1, 500);

    expect(await resumeLostRequests(store, at(10_000), { connectionId: conn })).toEqual([]); // lease runs to 11 s
    expect(await resumeLostRequests(store, at(11_001), { connectionId: conn })).toEqual([row.id]);
    expect(await expireStaleRequests(store, at(11_001), PENDING, { connectionId: conn })).toBe(0);
    expect(await getRequest(store, userId, row.id)).toMatchObject({
      status: 'pending',
      progress: 'waiting to resume after a lost executor',
      rows_done: 0,
      rows_total: 500,
      started_at: t0.toISOString(),
    });
    // The lost attempt cannot write any more; the next claim resumes with what was applied.
    expect(await renewLease(store, claim, at(11_002), LEASE)).toBe(false);
    claim = (await claimRequest(store, row.id, at(12_000), LEASE))!;
    expect(claim.resume).toEqual({ applied: [{ statement_index: 0, transactional: true }] });
    expect(await getRequest(store, userId, row.id)).toMatchObject({
      status: 'executing',
      progress: 'resuming after a lost executor',
      started_at: t0.toISOString(),
    });

    // Lost again and again: after MAX_RESUMES resumes the request fails as lost.
    let now = 12_000;
    for (let i = 1; i < MAX_RESUMES; i++) {
      await setProgress(store, claim, 'statement 2 of 2: batch 2', 1, at(now), LEASE);
      now += LEASE + 1;
      expect(await resumeLostRequests(store, at(now), { requestId: row.id })).toEqual([row.id]);
      claim = (await claimRequest(store, row.id, at(now), LEASE))!;
    }
    await setProgress(store, claim, 'statement 2 of 2: batch 3', 1, at(now), LEASE);
    now += LEASE + 1;
    expect(await resumeLostRequests(store, at(now), { requestId: row.id })).toEqual([]);
    expect(await expireStaleRequests(store, at(now), PENDING, { requestId: row.id })).toBe(1);
    expect((await getRequest(store, userId, row.id)).error).toMatchObject({ code: 'EXECUTOR_LOST', statement_index: 1, committed_transactional: [0] });
  });

  it('fails, not resumes, a request lost outside its batched step; and a resumed request no executor takes in time', async () => {
    const conn = await newConnection();
    const { row } = await create(conn);
    const claim = (await claimRequest(store, row.id, t0, LEASE))!;
    await setProgress(store, claim, 'statement 1 of 3: batch 1', 0, at(1000), LEASE);
    await storeBatchLedger(store, claim, { now: () => at(1000), leaseMs: LEASE }).start(0, 10);
    await recordApplied(store, claim, [{ statement_index: 0, sql: 'UPDATE t SET a = 1', transactional: true }]);
    await setProgress(store, claim, 'statement 2 of 3: ALTER TABLE t ...', 1, at(2000), LEASE);
    expect(await resumeLostRequests(store, at(12_001), { connectionId: conn })).toEqual([]);
    expect(await expireStaleRequests(store, at(12_001), PENDING, { connectionId: conn })).toBe(1);

    const other = await newConnection();
    const { row: second } = await create(other);
    const c2 = (await claimRequest(store, second.id, t0, LEASE))!;
    await setProgress(store, c2, 'statement 1 of 1: batch 1', 0, at(1000), LEASE);
    await storeBatchLedger(store, c2, { now: () => at(1000), leaseMs: LEASE }).start(0, 10);
    expect(await resumeLostRequests(store, at(11_001), { connectionId: other })).toEqual([second.id]);
    // A resumed request is not "never started": only the pending timeout after its lost lease fails it.
    expect(await expireStaleRequests(store, at(11_000 + PENDING - 1), PENDING, { connectionId: other })).toBe(0);
    expect(await expireStaleRequests(store, at(11_000 + PENDING + 1), PENDING, { connectionId: other })).toBe(1);
    const failed = await getRequest(store, userId, second.id);
    expect(failed.error).toMatchObject({ code: 'EXECUTOR_LOST', statement_index: 0 });
    expect(failed.error!.message).toMatch(/no executor took it up in time/);
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
