import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../snapshot-builder';
import { shopSnapshot } from '../test-schema';
import { RULES } from './index';
import { lintFindings } from './lint-statements';

const docsDir = fileURLToPath(new URL('../../../../../docs/rules/', import.meta.url));

describe('structured findings', () => {
  it('every rule has a unique kebab-case id, a severity and a doc page with what, why, safer and example', () => {
    const names = RULES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const r of RULES) {
      expect(r.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(['error', 'warning', 'info']).toContain(r.severity);
      const page = `${docsDir}${r.name}.md`;
      expect(existsSync(page), page).toBe(true);
      const text = readFileSync(page, 'utf8');
      for (const heading of ['## Why', '## Safer alternative', '## Example']) expect(text, `${r.name}: ${heading}`).toContain(heading);
    }
  });

  it('gives rule, severity, statement index, message, safer alternative and the statement location', async () => {
    const sql = "SET lock_timeout = '2s';\n\n  -- add the link\n  ALTER TABLE shipments ADD CONSTRAINT s_fk FOREIGN KEY (order_id) REFERENCES orders(id);";
    const findings = await lintFindings(sql, shopSnapshot());
    const fk = findings.find((f) => f.rule === 'adding-foreign-key-constraint');
    expect(fk).toEqual({
      rule: 'adding-foreign-key-constraint',
      severity: 'error',
      statement_index: 1,
      message: expect.stringContaining('SHARE ROW EXCLUSIVE'),
      safer: expect.stringContaining('NOT VALID'),
      location: { line: 4, column: 3 },
    });
  });

  it('offline (no snapshot), treats tables the migration did not create as existing', async () => {
    const empty = buildSnapshot([]);
    const sql =
      'CREATE TABLE a (id bigint PRIMARY KEY);\nALTER TABLE a ADD COLUMN b_id bigint REFERENCES b(id);\nALTER TABLE c ADD COLUMN a_id bigint REFERENCES a(id);';
    const offline = (await lintFindings(sql, empty, { assumeExisting: true, rules: RULES.filter((r) => !r.live) })).filter(
      (f) => f.rule === 'adding-foreign-key-constraint',
    );
    expect(offline.map((f) => [f.statement_index, f.location.line])).toEqual([[2, 3]]);
    expect((await lintFindings(sql, empty)).filter((f) => f.rule === 'adding-foreign-key-constraint')).toEqual([]);
  });
});
