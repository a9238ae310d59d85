import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../../test/support/scratch-database';
import { PreflightSession } from './preflight-session';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
beforeAll(async () => {
  db = await createScratchDatabase('pfs');
  // A table and settings on which the server plans a parallel scan for any session that allows one.
  await sql(
    db.url,
    `CREATE TABLE wide (id int, v text); INSERT INTO wide SELECT g, repeat('x', 1500) FROM generate_series(1, 20000) g;
     CREATE INDEX wide_id ON wide (id)`,
  );
  await sql(db.url, 'VACUUM ANALYZE wide');
  await sql(
    db.url,
    `ALTER DATABASE ${db.name} SET parallel_setup_cost = 0; ALTER DATABASE ${db.name} SET parallel_tuple_cost = 0;
                     ALTER DATABASE ${db.name} SET min_parallel_table_scan_size = 0`,
  );
});
afterAll(() => db.drop());

const planOf = async (session: PreflightSession): Promise<string> =>
  (await session.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT count(*) FROM wide WHERE v <> 'y'`)).map((r) => r['QUERY PLAN']).join('\n');

describe('preflight session', () => {
  it('reads in a READ ONLY transaction with its timeouts, and serially: no parallel workers, as the statement validates', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const session = new PreflightSession(client);
      // The same session outside the preflight's transaction plans a parallel scan here.
      expect(await planOf(session)).toMatch(/Gather/);
      const inside = await session.readOnly(async () => ({
        plan: await planOf(session),
        readOnly: (await session.query<{ transaction_read_only: string }>('SHOW transaction_read_only'))[0]!.transaction_read_only,
        lockTimeout: (await session.query<{ lock_timeout: string }>('SHOW lock_timeout'))[0]!.lock_timeout,
      }));
      expect(inside.plan).not.toMatch(/Gather/);
      expect(inside.readOnly).toBe('on');
      expect(inside.lockTimeout).toBe('2s');
      expect(await planOf(session)).toMatch(/Gather/);
    } finally {
      await client.end();
    }
  });

  it("plans a check's read as the statement's validation runs it: the heap read whole, or a foreign key's memory", async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const session = new PreflightSession(client);
      const countPlan = async (): Promise<string> =>
        (await session.query<{ 'QUERY PLAN': string }>('EXPLAIN SELECT count(*) FROM wide WHERE id < 50')).map((r) => r['QUERY PLAN']).join('\n');
      const got = await session.readOnly(async () => {
        const before = await countPlan();
        await session.planAsValidation('heap');
        return { before, after: await countPlan() };
      });
      // The index finds the rows cheaper; ALTER TABLE reads the heap, and so does the check.
      expect(got.before).toMatch(/Index/);
      expect(got.after).toMatch(/Seq Scan on wide/);
      expect(got.after).not.toMatch(/Index/);
      const memory = await session.readOnly(async () => {
        await session.planAsValidation('foreign-key');
        const [row] = await session.query<{ w: string; m: string; h: string }>(
          `SELECT current_setting('work_mem') AS w, current_setting('maintenance_work_mem') AS m, current_setting('hash_mem_multiplier') AS h`,
        );
        return row!;
      });
      expect(memory.w).toBe(memory.m);
      expect(memory.h).toBe('1');
      // Only for that transaction.
      expect((await session.query<{ work_mem: string }>('SHOW work_mem'))[0]!.work_mem).not.toBe(memory.m);
    } finally {
      await client.end();
    }
  });
});
