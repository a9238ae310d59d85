import { describe, expect, it } from 'vitest';
import { parseStatements } from './parse-statements';
import { runRules } from './rule-pass';
import { OFFLINE_RULES } from './rules/lint-offline';
import type { Rule } from './rules/rule';
import { buildSchemaIndex } from './schema-index';
import { buildSnapshot } from './snapshot-builder';
import { statementFacts } from './statement-facts';

const SQL = `
CREATE TABLE t (id serial PRIMARY KEY, parent_id bigint REFERENCES p (id));
ALTER TABLE orders ADD COLUMN total numeric NOT NULL DEFAULT 0;
ALTER TABLE orders ALTER COLUMN total TYPE numeric(8,2);
CREATE INDEX orders_total ON orders (total);
UPDATE orders SET total = 0;
DELETE FROM orders;
DROP TABLE orders;
`;

describe('runRules', () => {
  // Offline lint gives the rules no lock times (0 ms): that holds only while no offline rule reads them.
  it('offline rules never read lockDurationMs', async () => {
    const parsed = await parseStatements(SQL);
    const schema = buildSchemaIndex(buildSnapshot([]));
    const facts = parsed.map((p) => statementFacts(p, schema));
    const read: string[] = [];
    const watched: Rule[] = OFFLINE_RULES.map((r) => ({
      ...r,
      check: (ctx) =>
        r.check.call(
          r,
          new Proxy(ctx, {
            get(target, key, receiver) {
              if (key === 'lockDurationMs') read.push(r.name);
              return Reflect.get(target, key, receiver) as unknown;
            },
          }),
        ),
    }));
    const found = runRules(parsed, facts, schema, { rules: watched, assumeExisting: true, assumeInTransaction: false });
    expect(found.flatMap((f) => f.findings).length).toBeGreaterThan(5);
    expect(read).toEqual([]);
  });
});
