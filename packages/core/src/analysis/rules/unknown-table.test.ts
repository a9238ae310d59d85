import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { unknownTable } from './unknown-table';
import { lintStatements } from './lint-statements';

describe('unknown-table', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE nowhere ADD COLUMN x text', shopSnapshot(), [unknownTable]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[unknown-table\] /);
    expect(w.join('\n')).toContain('not in the schema snapshot');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE TABLE nowhere (id bigint); ALTER TABLE nowhere ADD COLUMN x text', shopSnapshot(), [unknownTable])).toEqual([]);
  });
});
