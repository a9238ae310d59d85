import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banDropColumn } from './ban-drop-column';
import { lintStatements } from './lint-statements';

describe('ban-drop-column', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE customers DROP COLUMN name', shopSnapshot(), [banDropColumn]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-drop-column\] /);
    expect(w.join('\n')).toContain('deletes its data');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE customers ADD COLUMN nickname text', shopSnapshot(), [banDropColumn])).toEqual([]);
  });
});
