import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../test/support/scratch-database';
import { ensureUser } from '../accounts/users';
import { migrate } from '../store/migrate';
import { serviceMigrations } from '../store/migrations/index';
import { PgliteStore } from '../store/pglite-store';
import { type BatchLedger, storeBatchLedger } from './batch-ledger';
import { planMigration } from './migration-plan';
import { claimRequest, createOrReplayRequest, getRequest } from './request-store';
import { runMigration } from './run-migration';

const settings = { lockTimeoutMs: 2000, statementTimeoutMs: 10_000, lockRetries: 1, lockRetryBaseMs: 10, lockRetryMaxMs: 20 };
const SCRIPT = "BEGIN;\n-- dbops:batched key=id size=10 pause_ms=1\nUPDATE items SET n = n + 1 WHERE kind <> 'skip';\nCOMMIT;";

interface BatchRow {
  batch_no: number;
  lower_key: string | null;
  upper_key: string | null;
  xid: string;
  rows: string;
  state: string;
}

describe('batched steps on a real PostgreSQL database, with their ledger in the state store', () => {
  let db: { url: string; drop(): Promise<void> };
  let store: PgliteStore;
  let userId: string;
  let client: pg.Client;
  let requestId: string;
  let ledger: BatchLedger;
  let progress: string[];

  beforeAll(async () => {
    [db, store] = await Promise.all([createScratchDatabase('batched'), PgliteStore.open()]);
    await migrate(store, serviceMigrations);
    userId = await ensureUser(store, 'test', 'owner');
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });
  beforeEach(async () => {
    // 95 rows, 5 of them left alone by the statement: 9 batches of 10 changed rows.
    await sql(
      db.url,
      `DROP SCHEMA public CASCADE; CREATE SCHEMA public;
      CREATE TABLE items (id int PRIMARY KEY, n int NOT NULL DEFAULT 0, kind text NOT NULL);
      INSERT INTO items (id, kind) SELECT g, CASE WHEN g % 19 = 0 THEN 'skip' ELSE 'k' END FROM generate_series(1, 95) g;`,
    );
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const connectionId = randomUUID();
    await store.query(
      `INSERT INTO connections (id, user_id, name, db_type, host, port, database_name, sslmode, secret_ciphertext, encrypted_data_key, key_provider, key_id)
       VALUES ($1, $2, 'c', 'postgresql_local', 'h', 5432, 'd', 'disable', '\\x00', '\\x00', 'test', 'k')`,
      [connectionId, userId],
    );
    const { row } = await createOrReplayRequest(store, { userId, connectionId, nonce: randomUUID(), sql: SCRIPT, sqlSha256: 'x', now: new Date() });
    requestId = row.id;
    const claim = (await claimRequest(store, requestId, new Date(), 60_000))!;
    ledger = storeBatchLedger(store, claim, { now: () => new Date(), leaseMs: 60_000 });
    progress = [];
  });
  afterEach(() => client.end());

  const run = async (l: BatchLedger, resume = false) =>
    runMigration({
      client,
      plan: await planMigration(SCRIPT, 170000),
      settings,
      ledger: l,
      onProgress: async (text) => void progress.push(text),
      ...(resume ? { resume: { applied: new Set<number>() } } : {}),
    });
  const batches = async () =>
    (
      await store.query<BatchRow>(
        'SELECT batch_no, lower_key, upper_key, xid, rows::text AS rows, state FROM migration_request_batches WHERE request_id = $1 ORDER BY batch_no',
        [requestId],
      )
    ).rows;
  const counts = async () => await sql<{ n: number; rows: number }>(db.url, 'SELECT n, count(*)::int AS rows FROM items GROUP BY n ORDER BY n');
  /** The done batches' ranges follow each other from the first key to the last: none skipped, none twice. */
  const contiguous = (rows: BatchRow[]) => {
    const done = rows.filter((b) => b.state === 'done');
    expect(done[0]!.lower_key).toBeNull();
    expect(done.at(-1)!.upper_key).toBeNull();
    for (let i = 1; i < done.length; i++) expect(done[i]!.lower_key).toBe(done[i - 1]!.upper_key);
  };

  it('runs the statement in key ranges, each its own transaction, and counts the rows', async () => {
    const outcome = await run(ledger);
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(await counts()).toEqual([
      { n: 0, rows: 5 },
      { n: 1, rows: 90 },
    ]);
    const rows = await batches();
    // 9 full batches and a last one that finds nothing after the 90th changed row.
    expect(rows.map((b) => [b.batch_no, b.upper_key, b.rows, b.state])).toEqual([
      [1, '10', '10', 'done'],
      [2, '21', '10', 'done'],
      [3, '31', '10', 'done'],
      [4, '42', '10', 'done'],
      [5, '52', '10', 'done'],
      [6, '63', '10', 'done'],
      [7, '73', '10', 'done'],
      [8, '84', '10', 'done'],
      [9, '94', '10', 'done'],
      [10, null, '0', 'done'],
    ]);
    contiguous(rows);
    expect(new Set(rows.map((b) => b.xid)).size).toBe(10);
    expect(await getRequest(store, userId, requestId)).toMatchObject({ rows_done: 90, rows_total: 90 });
    expect(progress[0]).toBe('statement 2 of 3: batch 1 (0 of 90 rows done): UPDATE items by id');
    expect(progress.at(-1)).toBe('statement 2 of 3: batch 10 (90 of 90 rows done): UPDATE items by id');
  });

  it('counts a batch the lost run committed but did not mark done, and goes on after it', async () => {
    let killed = false;
    const killedAfterCommit: BatchLedger = {
      ...ledger,
      async done(i, n) {
        if (n === 3 && !killed) {
          killed = true;
          throw new Error('executor killed');
        }
        return ledger.done(i, n);
      },
    };
    await expect(run(killedAfterCommit)).rejects.toThrow(/executor killed/);
    expect((await batches()).map((b) => b.state)).toEqual(['done', 'done', 'pending']);
    expect(await getRequest(store, userId, requestId)).toMatchObject({ rows_done: 20, rows_total: 90 });

    const outcome = await run(ledger, true);
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(await counts()).toEqual([
      { n: 0, rows: 5 },
      { n: 1, rows: 90 },
    ]);
    const rows = await batches();
    expect(rows.map((b) => b.state)).toEqual(Array(10).fill('done'));
    contiguous(rows);
    expect(await getRequest(store, userId, requestId)).toMatchObject({ rows_done: 90, rows_total: 90 });
  });

  it('redoes a batch the lost run recorded but never committed, under the next number', async () => {
    let killed = false;
    const killedBeforeCommit: BatchLedger = {
      ...ledger,
      async pending(i, b) {
        await ledger.pending(i, b);
        if (b.batchNo === 3 && !killed) {
          killed = true;
          throw new Error('executor killed');
        }
      },
    };
    await expect(run(killedBeforeCommit)).rejects.toThrow(/executor killed/);

    const outcome = await run(ledger, true);
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(await counts()).toEqual([
      { n: 0, rows: 5 },
      { n: 1, rows: 90 },
    ]);
    const rows = await batches();
    expect(rows.map((b) => b.state)).toEqual(['done', 'done', 'aborted', ...Array(8).fill('done')]);
    expect(rows[3]!.lower_key).toBe(rows[2]!.lower_key);
    contiguous(rows);
    expect(await getRequest(store, userId, requestId)).toMatchObject({ rows_done: 90, rows_total: 90 });
  });

  it('retries a batch whose row lock times out, in a new transaction, and goes on', async () => {
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT * FROM items WHERE id = 25 FOR UPDATE');
    const outcome = await runMigration({
      client,
      plan: await planMigration(SCRIPT, 170000),
      settings: { ...settings, lockTimeoutMs: 100, lockRetries: 3 },
      ledger,
      // The lock is released once the executor has given up on it once.
      onProgress: async (text) => {
        progress.push(text);
        if (text.includes('(lock retry 1 of 3)')) await blocker.query('COMMIT');
      },
    });
    await blocker.end();
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(progress).toContain('statement 2 of 3: batch 3 (20 of 90 rows done) (lock retry 1 of 3): UPDATE items by id');
    expect(await counts()).toEqual([
      { n: 0, rows: 5 },
      { n: 1, rows: 90 },
    ]);
    contiguous(await batches());
  });

  it.each([
    ['a key that is not unique', 'ALTER TABLE items DROP CONSTRAINT items_pkey', /key column id is not unique on its own/],
    [
      'a statement-level trigger',
      "CREATE FUNCTION noop() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NULL; END'; CREATE TRIGGER audit AFTER UPDATE ON items FOR EACH STATEMENT EXECUTE FUNCTION noop()",
      /statement-level trigger audit fires on UPDATE/,
    ],
  ])('refuses to batch over %s, running nothing of the statement', async (_, setup, message) => {
    await sql(db.url, setup);
    const outcome = await run(ledger);
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'BATCHING_REFUSED', statement_index: 1, rolled_back: false } });
    if (outcome.status === 'failed') expect(outcome.error.message).toMatch(message);
    expect(await counts()).toEqual([{ n: 0, rows: 95 }]);
  });

  it('refuses an annotation it cannot read, or on a statement it cannot batch, before anything runs', async () => {
    const plan = await planMigration('CREATE TABLE t0 (a int);\n-- dbops:batched key=id size=lots\nUPDATE items SET n = 1', 170000);
    const outcome = await runMigration({ client, plan, settings, onProgress: async () => undefined });
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'BATCHING_REFUSED', statement_index: 1, committed_transactional: [] } });
    const keyChange = await planMigration('-- dbops:batched key=id\nUPDATE items SET id = id + 1000', 170000);
    expect(await runMigration({ client, plan: keyChange, settings, onProgress: async () => undefined })).toMatchObject({
      status: 'failed',
      error: { code: 'BATCHING_REFUSED', message: expect.stringContaining('sets the key column id itself') },
    });
    expect(await sql(db.url, "SELECT to_regclass('t0') AS t")).toEqual([{ t: null }]);
  });
});
