import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../test/support/scratch-database';
import { ensureUser } from '../accounts/users';
import { loadSettings } from '../config';
import type { ConnectionTarget } from '../connections/connection-target';
import type { CoreDeps } from '../deps';
import { migrate } from '../store/migrate';
import { serviceMigrations } from '../store/migrations/index';
import { PgliteStore } from '../store/pglite-store';
import { systemClock } from '../util/clock';
import { executeMigrationRequest, type ExecutorPorts } from './execute-migration-request';
import { createOrReplayRequest, getRequest } from './request-store';

// A batched step near the executor's time limit (Lambda's 15 minutes) hands the request to a new
// executor run, which goes on from the last committed batch.
describe('an executor run that reaches its time limit inside a batched step', () => {
  let store: PgliteStore;
  let db: { url: string; drop(): Promise<void> };
  let deps: CoreDeps;
  let userId: string;
  let connectionId: string;
  const MIGRATION = '-- dbops:batched key=id size=10\nUPDATE items SET n = n + 1;';

  beforeAll(async () => {
    store = await PgliteStore.open();
    await migrate(store, serviceMigrations);
    userId = await ensureUser(store, 'test', 'hand-off');
    connectionId = randomUUID();
    await store.query(
      `INSERT INTO connections (id, user_id, name, db_type, host, port, database_name, sslmode, secret_ciphertext, encrypted_data_key, key_provider, key_id)
       VALUES ($1, $2, 'c', 'postgresql_local', 'h', 5432, 'd', 'disable', '\\x00', '\\x00', 'test', 'k')`,
      [connectionId, userId],
    );
    deps = { store, settings: loadSettings({}), clock: systemClock };
    db = await createScratchDatabase('handoff');
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });
  beforeEach(async () => {
    await sql(
      db.url,
      'DROP TABLE IF EXISTS items; CREATE TABLE items (id int PRIMARY KEY, n int NOT NULL); INSERT INTO items SELECT g, 0 FROM generate_series(1, 50) g',
    );
  });

  const submit = async (): Promise<string> =>
    (await createOrReplayRequest(store, { userId, connectionId, nonce: randomUUID(), sql: MIGRATION, sqlSha256: 'x', now: new Date() })).row.id;
  const ports = (requeued?: string[]): ExecutorPorts => ({
    loadTarget: async () => ({}) as ConnectionTarget,
    connect: async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      return client;
    },
    ...(requeued ? { requeue: async (id: string) => void requeued.push(id) } : {}),
  });
  /** Answers `plenty` for the first `asks` questions, then less than the executor's reserve plus a statement's budget. */
  const clock = (asks: number) => {
    let n = 0;
    return () => (n++ < asks ? 600_000 : 20_500);
  };
  const counts = () => sql(db.url, 'SELECT n, count(*)::int AS c FROM items GROUP BY n ORDER BY n');

  it('hands off between batches, and the next run finishes the step without repeating a batch', async () => {
    const id = await submit();
    const requeued: string[] = [];
    // Three asks: the first batch's budget, the check before the second and its budget.
    expect(await executeMigrationRequest(deps, ports(requeued), id, { remainingMs: clock(3) })).toBe('handed_off');
    expect(requeued).toEqual([id]);
    expect(await counts()).toEqual([
      { n: 0, c: 30 },
      { n: 1, c: 20 },
    ]);
    const waiting = await getRequest(store, userId, id);
    expect(waiting).toMatchObject({ status: 'pending', rows_done: 20, rows_total: 50 });

    expect(await executeMigrationRequest(deps, ports(requeued), id, { remainingMs: clock(1_000) })).toBe('completed');
    expect(await counts()).toEqual([{ n: 1, c: 50 }]);
    expect(await getRequest(store, userId, id)).toMatchObject({ status: 'completed', rows_done: 50, rows_total: 50 });
  });

  it('fails at the deadline as before when nothing can start a new run, or when no batch fits', async () => {
    const lone = await submit();
    expect(await executeMigrationRequest(deps, ports(), lone, { remainingMs: clock(3) })).toBe('failed');
    expect((await getRequest(store, userId, lone)).error).toMatchObject({ code: 'EXECUTOR_DEADLINE' });

    await sql(db.url, 'UPDATE items SET n = 0');
    const starved = await submit();
    const requeued: string[] = [];
    expect(await executeMigrationRequest(deps, ports(requeued), starved, { remainingMs: clock(0) })).toBe('failed');
    expect(requeued).toEqual([]);
    expect((await getRequest(store, userId, starved)).error).toMatchObject({ code: 'EXECUTOR_DEADLINE' });
    expect(await counts()).toEqual([{ n: 0, c: 50 }]);
  });
});
