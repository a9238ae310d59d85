import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banDropDatabase } from './ban-drop-database';
import { lintStatements } from './lint-statements';

describe('ban-drop-database', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('DROP DATABASE shop', shopSnapshot(), [banDropDatabase]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-drop-database\] /);
    expect(w.join('\n')).toContain('DROP DATABASE');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('DROP SCHEMA IF EXISTS scratch', shopSnapshot(), [banDropDatabase])).toEqual([]);
  });
});
