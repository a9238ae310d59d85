import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { preferRobustStmts } from './prefer-robust-stmts';
import { lintStatements } from './lint-statements';

describe('prefer-robust-stmts', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('CREATE INDEX CONCURRENTLY i ON orders (total)', shopSnapshot(), [preferRobustStmts]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[prefer-robust-stmts\] /);
    expect(w.join('\n')).toContain('IF NOT EXISTS');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE INDEX CONCURRENTLY IF NOT EXISTS i ON orders (total)', shopSnapshot(), [preferRobustStmts])).toEqual([]);
  });
});
