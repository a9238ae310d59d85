import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaSnapshot } from '../../packages/core/src/introspection/schema-snapshot';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { snapshotOf } from '../support/schema-fidelity';
import { sandboxOnText } from '../support/sandbox-on-text';

/**
 * DML on partitioned and inherited tables in the sandbox: the rows land in (or leave) partitions
 * and children the statement does not name, and a parent counts its children's rows. None of
 * that is a surprise to refuse; a table the migration does not write still has to keep its rows.
 */
const SCHEMA = `
CREATE TABLE ledger (n integer PRIMARY KEY, note text) PARTITION BY RANGE (n);
CREATE TABLE ledger_low PARTITION OF ledger FOR VALUES FROM (MINVALUE) TO (100);
CREATE TABLE ledger_high PARTITION OF ledger FOR VALUES FROM (100) TO (MAXVALUE);
CREATE TABLE base (id integer, kind text);
CREATE TABLE base_child (extra text) INHERITS (base);
CREATE TABLE untouched (id integer PRIMARY KEY);
INSERT INTO ledger VALUES (1, 'a'), (500, 'b');
INSERT INTO base VALUES (1, 'x');
INSERT INTO base_child VALUES (2, 'y', 'z');
INSERT INTO untouched VALUES (1), (2);
ANALYZE;
`;

describe('sandbox row counts under partitioning and inheritance', () => {
  let snapshot: SchemaSnapshot;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const source = await createScratchDatabase('part_dml');
    drop = source.drop;
    await sql(source.url, SCHEMA);
    snapshot = await snapshotOf(source.url);
  }, 120_000);
  afterAll(() => drop?.());

  const run = (text: string) => sandboxOnText(snapshot, text);

  it.each([
    // What is checked: the other family and `untouched` (and a sibling partition not written).
    ["INSERT INTO ledger VALUES (-5, 'routed to ledger_low')", 3],
    ['DELETE FROM ledger WHERE n < 100000', 3],
    ['TRUNCATE ledger', 3],
    ["INSERT INTO ledger_high VALUES (100000, 'the parent counts it')", 4],
    ['DELETE FROM base', 4],
    // The rows leave (or join) the parent's count, and are not lost.
    ['ALTER TABLE ledger DETACH PARTITION ledger_high', 3],
    ['ALTER TABLE ledger DETACH PARTITION ledger_high; ALTER TABLE ledger ATTACH PARTITION ledger_high FOR VALUES FROM (100) TO (1000000)', 3],
  ])(
    '%s passes, and the tables it does not write keep their rows',
    async (text, kept) => {
      const r = await run(text);
      expect(r.migration_error).toBeNull();
      expect(r.passed).toBe(true);
      expect(r.validation_results.find((v) => v.check === 'row_counts_kept')).toEqual({
        check: 'row_counts_kept',
        passed: true,
        detail: `${kept} table(s) the migration does not delete from kept their synthetic rows`,
      });
    },
    120_000,
  );
});
