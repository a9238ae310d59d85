import { describe, expect, it } from 'vitest';
import { ensureParser, lintOffline } from './lint-offline';

const rulesOf = (sql: string): string[] => lintOffline(sql).findings.map((f) => `${f.statement_index} ${f.rule}`);

describe('answers about earlier statements, kept per migration', () => {
  it('count only what came before the statement', async () => {
    await ensureParser();
    // The index is on a table the file creates only later, so it is on an existing table; the
    // lock_timeout set after the first DDL does not cover it.
    const found = rulesOf(`
CREATE INDEX t_a ON t (a);
SET lock_timeout = '1s';
CREATE TABLE t (a int);
CREATE INDEX t_b ON t (a);
`);
    expect(found).toContain('0 require-concurrent-index-creation');
    expect(found).toContain('0 require-lock-timeout');
    expect(found).not.toContain('3 require-concurrent-index-creation');
  });

  it('are not carried from one migration to the next', async () => {
    await ensureParser();
    const creates = 'CREATE TABLE IF NOT EXISTS t (a bigint);\nSET lock_timeout = 1;\nSET statement_timeout = 1;\nCREATE INDEX t_a ON t (a);\n';
    expect(rulesOf(creates)).toEqual([]);
    // The same statement at the same position, in a file that neither creates t nor sets anything.
    const alone = rulesOf('SELECT 1;\nSELECT 2;\nSELECT 3;\nCREATE INDEX t_a ON t (a);\n');
    expect(alone).toEqual(['3 require-lock-timeout', '3 require-statement-timeout', '3 require-concurrent-index-creation']);
    // And back: answers built for the second file do not leak into the first.
    expect(rulesOf(creates)).toEqual([]);
  });
});
