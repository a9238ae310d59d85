import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banDropTable } from './ban-drop-table';
import { lintStatements } from './lint-statements';

describe('ban-drop-table', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('DROP TABLE shipments', shopSnapshot(), [banDropTable]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-drop-table\] /);
    expect(w.join('\n')).toContain('deletes all rows');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('DROP VIEW customer_emails', shopSnapshot(), [banDropTable])).toEqual([]);
  });
});
