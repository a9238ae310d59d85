import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banAlterDomainWithAddConstraint } from './ban-alter-domain-with-add-constraint';
import { lintStatements } from './lint-statements';

describe('ban-alter-domain-with-add-constraint', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER DOMAIN positive ADD CONSTRAINT p CHECK (VALUE > 0)', shopSnapshot(), [banAlterDomainWithAddConstraint]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-alter-domain-with-add-constraint\] /);
    expect(w.join('\n')).toContain('NOT VALID');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER DOMAIN positive SET DEFAULT 1', shopSnapshot(), [banAlterDomainWithAddConstraint])).toEqual([]);
  });
});
