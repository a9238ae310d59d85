import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { renamingColumn } from './renaming-column';
import { lintStatements } from './lint-statements';

describe('renaming-column', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE customers RENAME COLUMN name TO full_name', shopSnapshot(), [renamingColumn]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[renaming-column\] /);
    expect(w.join('\n')).toContain('old name');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE customers ADD COLUMN full_name text', shopSnapshot(), [renamingColumn])).toEqual([]);
  });
});
