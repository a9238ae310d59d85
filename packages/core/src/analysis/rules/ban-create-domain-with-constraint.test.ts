import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banCreateDomainWithConstraint } from './ban-create-domain-with-constraint';
import { lintStatements } from './lint-statements';

describe('ban-create-domain-with-constraint', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('CREATE DOMAIN positive AS int CHECK (VALUE > 0)', shopSnapshot(), [banCreateDomainWithConstraint]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-create-domain-with-constraint\] /);
    expect(w.join('\n')).toContain('domain');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE DOMAIN label AS text', shopSnapshot(), [banCreateDomainWithConstraint])).toEqual([]);
  });
});
