import { describe, expect, it } from 'vitest';
import type { SafePlan, SafePlanStep, StatementReport } from '../api/types';
import { layoutTimeline } from './lock-timeline';
import { batchProgress, compareTimelines, progressStatement, stepOfStatement, stepTable, UNNAMED_TABLE, writeBlockingMs } from './safe-plan';
import { statementEnds } from './script-statements';

const stmt = (index: number, table: string, lock: StatementReport['lock_type'], ms: number): StatementReport => ({
  index,
  sql: `-- ${index}`,
  statement_type: 'CREATE_INDEX',
  table,
  lock_type: lock,
  lock_duration_ms: ms,
  risk_score: 60,
  risk_category: 'high',
  affected_tables: [],
  rollback: { statement_index: index, sql: '', reversible: true, warning: null },
  warnings: [],
});

const step = (index: number, sql: string, transactional: boolean, lock: SafePlanStep['lock_type'], ms: number, batched = false): SafePlanStep => ({
  index,
  sql,
  transactional,
  lock_type: lock,
  lock_duration_ms: ms,
  batched,
});

/** The script as the service writes it (draft-safe-plan.ts): SET, then BEGIN/COMMIT around each transactional step. */
const planOf = (steps: SafePlanStep[]): Pick<SafePlan, 'steps' | 'combined_script'> => ({
  steps,
  combined_script: ["SET lock_timeout = '2s';", ...steps.map((s) => (s.transactional ? `BEGIN;\n${s.sql};\nCOMMIT;` : `${s.sql};`))].join('\n') + '\n',
});

describe('statement ends of a script', () => {
  it('counts statements as the parser does: quotes, dollar quotes and comments hide semicolons, empty statements do not count', () => {
    const sql = `SET a = 'x;y';; -- c;\nCREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN 1; END $body$;\n/* a; /* nested; */ still; */ SELECT "a;b", E'\\';', $1;\nSELECT 1`;
    const ends = statementEnds(sql);
    expect(ends).toHaveLength(4);
    expect(sql.slice(0, ends[1]! + 1)).toMatch(/END \$body\$;$/);
    expect(ends[3]).toBe(sql.length);
  });
});

describe('safe plan steps and the executor numbering', () => {
  const plan = planOf([
    step(0, 'ALTER TABLE orders ADD CONSTRAINT orders_c_fkey FOREIGN KEY (c) REFERENCES customers (id) NOT VALID', true, 'SHARE ROW EXCLUSIVE', 5),
    step(1, 'ALTER TABLE public.orders VALIDATE CONSTRAINT orders_c_fkey', true, 'SHARE UPDATE EXCLUSIVE', 800),
    step(2, 'CREATE INDEX CONCURRENTLY orders_note_idx ON orders (note)', false, 'SHARE UPDATE EXCLUSIVE', 1200),
    step(3, "-- dbops:batched key=id size=5000 pause_ms=0\nUPDATE orders SET note = 'a;b'; -- x;\nSELECT 1", true, 'ROW EXCLUSIVE', 3000, true),
  ]);

  it('maps each statement of combined_script (SET, BEGIN, the step, COMMIT) to its step', () => {
    // 0 SET, 1 BEGIN, 2 step 0, 3 COMMIT, 4 BEGIN, 5 step 1, 6 COMMIT, 7 step 2, 8 BEGIN, 9-10 step 3, 11 COMMIT
    expect([...Array(13).keys()].map((i) => stepOfStatement(plan, i))).toEqual([null, 0, 0, 0, 1, 1, 1, 2, 3, 3, 3, 3, null]);
  });

  it('reads the running statement from the progress text (1-based there)', () => {
    expect(progressStatement('statement 8 of 12: batch 4 (15000 of 150000 rows done): UPDATE orders by id')).toBe(7);
    expect(stepOfStatement(plan, progressStatement('statement 8 of 12: CREATE INDEX CONCURRENTLY orders_note_idx ...')!)).toBe(2);
    expect(progressStatement('re-introspecting the schema')).toBeNull();
    expect(progressStatement(null)).toBeNull();
  });

  it('gives no step when the script does not hold the steps (a plan edited by hand)', () => {
    expect(stepOfStatement({ ...plan, combined_script: 'SELECT 1; SELECT 2;' }, 1)).toBeNull();
  });
});

describe('side-by-side lock timelines', () => {
  it('lays the original and the plan on one scale, each step on the lane of the table it names', () => {
    const original = [stmt(0, 'public.orders', 'SHARE', 1000)];
    const plan = { steps: [step(0, 'CREATE INDEX CONCURRENTLY orders_note_idx ON orders (note)', false, 'SHARE UPDATE EXCLUSIVE', 4000)] };
    const c = compareTimelines(original, plan);
    expect(c.scaleMs).toBe(4000);
    expect(c.original.lanes[0]!.bars[0]).toMatchObject({ left: 0, width: 25, severity: 3 });
    expect(c.plan.lanes).toEqual([{ table: 'public.orders', bars: [expect.objectContaining({ left: 0, width: 100, severity: 2 })] }]);
    expect(c.originalWriteBlockingMs).toBe(1000);
    expect(c.planWriteBlockingMs).toBe(0);
  });

  it('keeps the old layout when no scale is given', () => {
    expect(layoutTimeline([stmt(0, 'a', 'SHARE', 10)]).lanes[0]!.bars[0]).toMatchObject({ left: 0, width: 100 });
    expect(layoutTimeline([stmt(0, 'a', 'SHARE', 10)], { scaleMs: 40 }).lanes[0]!.bars[0]).toMatchObject({ left: 0, width: 25 });
  });

  it('picks the table a step names first, quoted names included, and says so when it names none', () => {
    const tables = ['public.orders', 'public.customers', 'sales."Line Items"'];
    expect(stepTable({ sql: 'ALTER TABLE ORDERS ADD FOREIGN KEY (c) REFERENCES customers (id)' }, tables)).toBe('public.orders');
    expect(stepTable({ sql: 'ALTER TABLE customers VALIDATE CONSTRAINT orders_fk' }, tables)).toBe('public.customers');
    expect(stepTable({ sql: 'CREATE INDEX CONCURRENTLY i ON sales."Line Items" (x)' }, tables)).toBe('sales."Line Items"');
    expect(stepTable({ sql: 'DROP FUNCTION dbops_sync_x()' }, tables)).toBe(UNNAMED_TABLE);
    expect(stepTable({ sql: 'DROP FUNCTION dbops_sync_x()' }, ['public.orders'])).toBe('public.orders');
  });

  it('counts only locks that stop writes as blocking', () => {
    expect(writeBlockingMs([stmt(0, 'a', 'ACCESS EXCLUSIVE', 5), stmt(1, 'a', 'SHARE UPDATE EXCLUSIVE', 900), stmt(2, 'a', 'SHARE', 7)])).toBe(12);
  });
});

describe('batched progress', () => {
  it('reads rows_done of rows_total, clamped, and nothing before a batched step starts', () => {
    expect(batchProgress({ rows_done: 40_000, rows_total: 150_000 })).toEqual({ done: 40_000, total: 150_000, percent: 26 });
    expect(batchProgress({ rows_done: 9, rows_total: 0 })).toEqual({ done: 0, total: 0, percent: 100 });
    expect(batchProgress({ rows_done: null, rows_total: null })).toBeNull();
  });
});
