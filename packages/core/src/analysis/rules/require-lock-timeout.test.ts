import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { requireLockTimeout } from './require-lock-timeout';
import { lintStatements } from './lint-statements';

describe('require-lock-timeout', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE orders ADD COLUMN note text', shopSnapshot(), [requireLockTimeout]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[require-lock-timeout\] /);
    expect(w.join('\n')).toContain('lock_timeout');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements("SET lock_timeout = '2s'; ALTER TABLE orders ADD COLUMN note text", shopSnapshot(), [requireLockTimeout])).toEqual([]);
  });
});

describe('require-lock-timeout offline (no snapshot)', () => {
  it('reports once per file, at the first DDL with no lock_timeout before it, as squawk does', async () => {
    const { lintOffline, ensureParser } = await import('./lint-offline');
    await ensureParser();
    const sql = 'CREATE TABLE a (id bigint);\nCREATE OR REPLACE VIEW v AS SELECT 1;\nALTER TABLE b ADD COLUMN c text;';
    expect(
      lintOffline(sql)
        .findings.filter((f) => f.rule === 'require-lock-timeout')
        .map((f) => f.statement_index),
    ).toEqual([1]);
    expect(lintOffline(`SET lock_timeout = '1s';\n${sql}`).findings.filter((f) => f.rule === 'require-lock-timeout')).toEqual([]);
  });
});
