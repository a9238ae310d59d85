import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../test/support/scratch-database';
import { planMigration } from './migration-plan';
import { runMigration, type RunMigrationOptions } from './run-migration';

const settings = { lockTimeoutMs: 2000, statementTimeoutMs: 10_000, lockRetries: 0, lockRetryBaseMs: 50, lockRetryMaxMs: 200 };

describe('runMigration on a real PostgreSQL database', () => {
  let db: { url: string; drop(): Promise<void> };
  let client: pg.Client;
  let progress: string[];
  let applied: number[][];

  beforeAll(async () => {
    db = await createScratchDatabase('exec');
  });
  afterAll(() => db.drop());
  beforeEach(async () => {
    await sql(db.url, 'DROP SCHEMA public CASCADE; CREATE SCHEMA public; CREATE TABLE orders (id int PRIMARY KEY, email text); CREATE TABLE legacy (id int)');
    await sql(db.url, "INSERT INTO orders VALUES (1, 'a@x'), (2, 'a@x')");
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    progress = [];
    applied = [];
  });
  afterEach(() => client.end());

  const run = async (script: string, overrides: Partial<RunMigrationOptions> = {}) =>
    runMigration({
      client,
      plan: await planMigration(script, 170000),
      settings,
      onProgress: async (text) => void progress.push(text),
      onApplied: async (indexes) => void applied.push(indexes),
      ...overrides,
    });

  const tables = async () => (await sql<{ t: string }>(db.url, "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).map((r) => r.t);

  it('applies a migration in one transaction and reports the schema diff', async () => {
    const outcome = await run(
      'CREATE TABLE customers (id bigint PRIMARY KEY, name varchar(80)); ALTER TABLE orders ADD COLUMN customer_id bigint, ADD COLUMN note text; DROP TABLE legacy;',
    );
    expect(outcome.status).toBe('completed');
    if (outcome.status !== 'completed') return;
    expect(outcome.result).toMatchObject({
      tables_added: ['customers'],
      tables_removed: ['legacy'],
      columns_added: [
        { table: 'orders', column: 'customer_id', type: 'bigint' },
        { table: 'orders', column: 'note', type: 'text' },
      ],
    });
    expect(outcome.result.execution_time_ms).toBeGreaterThanOrEqual(0);
    expect(progress).toEqual([
      'statement 1 of 3: CREATE TABLE customers (id bigint PRIMARY KEY, name varchar(80))',
      'statement 2 of 3: ALTER TABLE orders ADD COLUMN customer_id bigint, ADD COLUMN note text',
      'statement 3 of 3: DROP TABLE legacy',
    ]);
    expect(applied).toEqual([[0, 1, 2]]);
    expect(await tables()).toEqual(['customers', 'orders']);
  });

  it('rolls back every transactional statement when one fails', async () => {
    const outcome = await run(
      'CREATE TABLE customers (id int); ALTER TABLE orders ADD COLUMN note text; ALTER TABLE missing ADD COLUMN x int; DROP TABLE legacy;',
    );
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error).toMatchObject({
      code: '42P01',
      statement_index: 2,
      rolled_back: true,
      applied_non_transactional: [],
      committed_transactional: [],
      invalid_indexes: [],
    });
    expect(outcome.error.message).toContain('"missing" does not exist');
    expect(applied).toEqual([]);
    expect(await tables()).toEqual(['legacy', 'orders']);
    const cols = await sql(db.url, "SELECT 1 FROM information_schema.columns WHERE table_name = 'orders' AND column_name = 'note'");
    expect(cols).toHaveLength(0);
  });

  it('says exactly which non-transactional statements ran before a failure', async () => {
    const outcome = await run('ALTER TABLE orders ADD COLUMN note text; CREATE INDEX CONCURRENTLY orders_note ON orders (note); CREATE TABLE legacy (id int);');
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error).toMatchObject({
      code: '42P07',
      statement_index: 2,
      rolled_back: true,
      applied_non_transactional: [{ statement_index: 1, sql: 'CREATE INDEX CONCURRENTLY orders_note ON orders (note)' }],
      committed_transactional: [0],
    });
    expect(applied).toEqual([[0], [1]]);
  });

  it('reports the INVALID index a failed CREATE INDEX CONCURRENTLY leaves behind', async () => {
    const outcome = await run('CREATE UNIQUE INDEX CONCURRENTLY orders_email ON orders (email);');
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error).toMatchObject({ code: '23505', statement_index: 0, rolled_back: false, invalid_indexes: ['public.orders_email'] });
    expect(outcome.error.hint).toContain('DROP INDEX CONCURRENTLY public.orders_email');
  });

  it('names what a failed expand/contract plan left in place, with the SQL that removes it, before and after its swap', async () => {
    const expand = `ALTER TABLE orders ADD COLUMN dbops_new_id bigint;
      CREATE FUNCTION dbops_sync_orders_id() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN NEW.dbops_new_id := NEW.id; RETURN NEW; END $f$;
      CREATE TRIGGER dbops_sync_id BEFORE INSERT OR UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION dbops_sync_orders_id();
      COMMIT;`;
    const before = await run(`${expand} UPDATE orders SET dbops_new_id = id; SELECT 1 / 0;`);
    expect(before.status).toBe('failed');
    if (before.status !== 'failed') return;
    expect(before.error.hint).toContain(
      "Left in place by the expand/contract plan on orders: column dbops_new_id, trigger dbops_sync_id calling dbops_sync_orders_id() (the column's indexes and constraints go with it). To start over, remove them: DROP TRIGGER dbops_sync_id ON public.orders; ALTER TABLE public.orders DROP COLUMN dbops_new_id; DROP FUNCTION dbops_sync_orders_id(); Then analyze the migration again.",
    );
    await sql(db.url, before.error.hint!.slice(before.error.hint!.indexOf('remove them: ') + 13, before.error.hint!.indexOf(' Then analyze')));
    const [left] = await sql<{ n: number }>(
      db.url,
      "SELECT (SELECT count(*) FROM pg_proc WHERE proname LIKE 'dbops%') + (SELECT count(*) FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname LIKE 'dbops%') AS n",
    );
    expect(Number(left!.n)).toBe(0);

    const after = await run(
      `${expand} UPDATE orders SET dbops_new_id = id; DROP TRIGGER dbops_sync_id ON orders; ALTER TABLE orders DROP CONSTRAINT orders_pkey; ALTER TABLE orders RENAME COLUMN id TO id_dbops_old; ALTER TABLE orders RENAME COLUMN dbops_new_id TO id; COMMIT; SELECT 1 / 0;`,
    );
    expect(after.status).toBe('failed');
    if (after.status !== 'failed') return;
    expect(after.error.hint).toContain(
      'The expand/contract swap of orders is done (its column has the new type); left in place: id_dbops_old and dbops_sync_orders_id(). Finish with: ALTER TABLE public.orders DROP COLUMN id_dbops_old; DROP FUNCTION dbops_sync_orders_id();',
    );
  });

  it("drops first the other tables' foreign keys a failed referenced-key plan added on the shadow key, so that starting over works", async () => {
    await sql(
      db.url,
      'DELETE FROM orders WHERE id = 2; CREATE TABLE items (id int PRIMARY KEY, order_id int REFERENCES orders (id)); INSERT INTO items VALUES (1, 1)',
    );
    const failed = await run(`ALTER TABLE orders ADD COLUMN dbops_new_id bigint;
      CREATE FUNCTION dbops_sync_orders_id() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN NEW.dbops_new_id := NEW.id; RETURN NEW; END $f$;
      CREATE TRIGGER dbops_sync_id BEFORE INSERT OR UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION dbops_sync_orders_id();
      COMMIT; UPDATE orders SET dbops_new_id = id; CREATE UNIQUE INDEX dbops_new_orders_pkey ON orders (dbops_new_id);
      ALTER TABLE items ADD CONSTRAINT dbops_new_items_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders (dbops_new_id) NOT VALID; COMMIT; SELECT 1 / 0;`);
    expect(failed.status).toBe('failed');
    if (failed.status !== 'failed') return;
    const hint = failed.error.hint!;
    expect(hint).toContain(
      'To start over, remove them: ALTER TABLE items DROP CONSTRAINT IF EXISTS dbops_new_items_order_id_fkey; DROP TRIGGER dbops_sync_id ON public.orders; ALTER TABLE public.orders DROP COLUMN dbops_new_id;',
    );
    await sql(db.url, hint.slice(hint.indexOf('remove them: ') + 13, hint.indexOf(' Then analyze')));
    const [left] = await sql<{ n: number }>(
      db.url,
      "SELECT (SELECT count(*) FROM pg_constraint WHERE conname LIKE 'dbops%') + (SELECT count(*) FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname LIKE 'dbops%') AS n",
    );
    expect(Number(left!.n)).toBe(0);
  });

  it('runs under the configured lock_timeout and statement_timeout', async () => {
    const outcome = await run('SELECT pg_sleep(2);', { settings: { ...settings, statementTimeoutMs: 200 } });
    expect(outcome.status === 'failed' && outcome.error.code).toBe('57014');
  });

  it('stops cleanly, rolled back, when the executor is about to run out of time', async () => {
    const outcome = await run('CREATE TABLE customers (id int); SELECT pg_sleep(3);', { remainingMs: () => 21_500 });
    expect(outcome.status === 'failed' && outcome.error).toMatchObject({ code: '57014', statement_index: 1, rolled_back: true });
    const none = await run('CREATE TABLE customers (id int);', { remainingMs: () => 20_500 });
    expect(none.status === 'failed' && none.error).toMatchObject({ code: 'EXECUTOR_DEADLINE', statement_index: 0, rolled_back: true });
    expect(await tables()).toEqual(['legacy', 'orders']);
  });

  describe('lock timeouts', () => {
    let holder: pg.Client;
    beforeEach(async () => {
      holder = new pg.Client({ connectionString: db.url });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE orders IN ACCESS EXCLUSIVE MODE');
    });
    afterEach(() => holder.end());

    it('fails with 55P03 after the configured retries when the lock never frees', async () => {
      const sleeps: number[] = [];
      const outcome = await run('ALTER TABLE orders ADD COLUMN note text;', {
        settings: { ...settings, lockTimeoutMs: 50, lockRetries: 2 },
        sleep: async (ms) => void sleeps.push(ms),
        random: () => 1,
      });
      expect(outcome.status === 'failed' && outcome.error.code).toBe('55P03');
      expect(sleeps).toEqual([50, 100]);
      expect(progress).toEqual([
        'statement 1 of 1: ALTER TABLE orders ADD COLUMN note text',
        'statement 1 of 1: ALTER TABLE orders ADD COLUMN note text (lock retry 1 of 2)',
        'statement 1 of 1: ALTER TABLE orders ADD COLUMN note text (lock retry 2 of 2)',
      ]);
    });

    it('retries a transaction PostgreSQL rolled back as a deadlock victim, as it retries a lock timeout', async () => {
      // The holder waits long before checking for a deadlock: the migration, waiting first, is the victim.
      await holder.query("SET LOCAL deadlock_timeout = '60s'");
      let holderWaits: Promise<unknown> = Promise.resolve();
      const migration = run('LOCK TABLE legacy IN ACCESS EXCLUSIVE MODE; ALTER TABLE orders ADD COLUMN note text;', {
        settings: { ...settings, lockTimeoutMs: 30_000, lockRetries: 2 },
        sleep: async () => {
          await holderWaits;
          await holder.query('COMMIT');
        },
      });
      // Once the migration holds legacy and waits for orders, the holder asks for legacy: a deadlock.
      while (!(await sql(db.url, "SELECT 1 FROM pg_locks WHERE relation = 'orders'::regclass AND NOT granted")).length)
        await new Promise((r) => setTimeout(r, 20));
      holderWaits = holder.query('LOCK TABLE legacy IN ACCESS EXCLUSIVE MODE');
      const outcome = await migration;
      expect(outcome.status === 'failed' ? outcome.error : outcome.status).toBe('completed');
      expect(progress.at(-1)).toMatch(/\(lock retry 1 of 2\)$/);
    });

    it('retries with backoff and succeeds once the lock is released', async () => {
      const outcome = await run('ALTER TABLE orders ADD COLUMN note text;', {
        settings: { ...settings, lockTimeoutMs: 100, lockRetries: 5 },
        sleep: async () => {
          await holder.query('COMMIT');
        },
      });
      expect(outcome.status).toBe('completed');
      expect(progress).toHaveLength(2);
    });
  });
});
