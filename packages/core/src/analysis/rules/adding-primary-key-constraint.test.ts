import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { addingPrimaryKeyConstraint } from './adding-primary-key-constraint';
import { lintStatements } from './lint-statements';

describe('adding-primary-key-constraint', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE shipments ADD PRIMARY KEY (id)', shopSnapshot(), [addingPrimaryKeyConstraint]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[adding-primary-key-constraint\] /);
    expect(w.join('\n')).toContain('USING INDEX');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE shipments ADD CONSTRAINT shipments_pk PRIMARY KEY USING INDEX shipments_id_idx', shopSnapshot(), [addingPrimaryKeyConstraint])).toEqual([]);
  });
});
