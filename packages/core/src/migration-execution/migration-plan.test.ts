import { describe, expect, it } from 'vitest';
import { planMigration, segmentPlan, statementSummary } from './migration-plan';

describe('migration plan', () => {
  it("keeps each statement's original text, multi-byte characters included", async () => {
    const plan = await planMigration("ALTER TABLE t ADD COLUMN é text DEFAULT 'ü';\n-- next\nCREATE TABLE x (id int);", 170000);
    expect(plan.map((s) => s.sql)).toEqual(["ALTER TABLE t ADD COLUMN é text DEFAULT 'ü'", '-- next\nCREATE TABLE x (id int)']);
    expect(plan.map((s) => s.mode)).toEqual(['transactional', 'transactional']);
  });

  it.each([
    ['CREATE INDEX CONCURRENTLY i ON t (a)', 'non_transactional'],
    ['CREATE INDEX i ON t (a)', 'transactional'],
    ['DROP INDEX CONCURRENTLY i', 'non_transactional'],
    ['DROP INDEX i', 'transactional'],
    ['REINDEX INDEX CONCURRENTLY i', 'non_transactional'],
    ['REINDEX INDEX i', 'transactional'],
    ['VACUUM t', 'non_transactional'],
    ['VACUUM (ANALYZE) t', 'non_transactional'],
    ['ANALYZE t', 'transactional'],
    ['ALTER TABLE p DETACH PARTITION c CONCURRENTLY', 'non_transactional'],
    ['ALTER TABLE p DETACH PARTITION c', 'transactional'],
    ['CREATE DATABASE d', 'non_transactional'],
    ['ALTER SYSTEM SET work_mem = 1', 'non_transactional'],
    ["ALTER TYPE mood ADD VALUE 'meh'", 'transactional'],
    ['BEGIN', 'skipped'],
    ['COMMIT', 'skipped'],
    ["SELECT 'CREATE INDEX CONCURRENTLY'", 'transactional'],
  ])('%s is %s', async (sql, mode) => {
    const [s] = await planMigration(sql, 170000);
    expect(s!.mode).toBe(mode);
  });

  it('runs ALTER TYPE ... ADD VALUE on its own before PostgreSQL 12', async () => {
    const [s] = await planMigration("ALTER TYPE mood ADD VALUE 'meh'", 110000);
    expect(s!.mode).toBe('non_transactional');
  });

  it('names the index a CREATE INDEX CONCURRENTLY builds', async () => {
    const [s] = await planMigration('CREATE UNIQUE INDEX CONCURRENTLY orders_email ON orders (email)', 170000);
    expect(s!.concurrentIndexName).toBe('orders_email');
  });

  it('groups consecutive transactional statements and isolates the others, in order', async () => {
    const plan = await planMigration(
      'BEGIN; CREATE TABLE a (id int); ALTER TABLE a ADD b int; CREATE INDEX CONCURRENTLY ai ON a (b); DROP TABLE z; COMMIT;',
      170000,
    );
    expect(segmentPlan(plan).map((s) => [s.transactional, s.statements.map((x) => x.index)])).toEqual([
      [true, [1, 2]],
      [false, [3]],
      [true, [4]],
    ]);
  });

  it('puts a dbops:batched statement in a segment of its own, with its annotation', async () => {
    const plan = await planMigration(
      'ALTER TABLE t ADD b int;\n-- dbops:batched key=id size=50\nUPDATE t SET b = a;\nDELETE FROM t WHERE a IS NULL;\n-- dbops:batched\nDELETE FROM t',
      170000,
    );
    expect(plan.map((s) => s.batched)).toEqual([null, { key: 'id', size: 50, pauseMs: 0 }, null, { error: 'key=<column> is required' }]);
    expect(segmentPlan(plan).map((s) => [s.transactional, s.statements.map((x) => x.index)])).toEqual([
      [true, [0]],
      [true, [1]],
      [true, [2]],
      [true, [3]],
    ]);
  });

  it('summarizes a statement on one short line', () => {
    expect(statementSummary('ALTER TABLE orders\n   ADD COLUMN note text')).toBe('ALTER TABLE orders ADD COLUMN note text');
    expect(statementSummary(`SELECT ${'x'.repeat(200)}`)).toHaveLength(80);
  });
});

describe("the script's own COMMIT", () => {
  it('ends the transaction, so a new enum value can be used after it', async () => {
    const plan = await planMigration("ALTER TYPE mood ADD VALUE 'meh'; COMMIT; UPDATE t SET m = 'meh'; BEGIN; DELETE FROM t; COMMIT;", 170000);
    expect(segmentPlan(plan).map((s) => [s.transactional, s.statements.map((x) => x.index)])).toEqual([
      [true, [0]],
      [true, [2]],
      [true, [4]],
    ]);
  });
});
