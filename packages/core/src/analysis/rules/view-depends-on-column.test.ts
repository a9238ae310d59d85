import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { viewDependsOnColumn } from './view-depends-on-column';
import { lintStatements } from './lint-statements';

describe('view-depends-on-column', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE customers DROP COLUMN email', shopSnapshot(), [viewDependsOnColumn]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[view-depends-on-column\] /);
    expect(w.join('\n')).toContain('public.customer_emails');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE customers DROP COLUMN name', shopSnapshot(), [viewDependsOnColumn])).toEqual([]);
  });
});
