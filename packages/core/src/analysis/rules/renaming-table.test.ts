import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { renamingTable } from './renaming-table';
import { lintStatements } from './lint-statements';

describe('renaming-table', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE customers RENAME TO clients', shopSnapshot(), [renamingTable]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[renaming-table\] /);
    expect(w.join('\n')).toContain('old name');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE VIEW clients AS SELECT * FROM customers', shopSnapshot(), [renamingTable])).toEqual([]);
  });
});
