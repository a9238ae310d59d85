import { describe, expect, it } from 'vitest';
import { CatalogVerdictCache } from './catalog-verdict-cache';

const findings = [{ kind: 'ddl' as const, what: 'function f()' }];

describe('CatalogVerdictCache', () => {
  it('reuses a verdict while the snapshot shows no ended transaction, and rebases on it', () => {
    const c = new CatalogVerdictCache();
    c.remember('q', findings, '100:105:100,103');
    expect(c.confirmed('q', c.lookup('q')!, '100:105:100,103')).toEqual(findings);
    // A transaction that started and is still running has changed nothing visible yet.
    expect(c.confirmed('q', c.lookup('q')!, '100:107:100,103,105,106')).toEqual(findings);
  });

  it('drops a verdict when any transaction ended since, in progress then or started after', () => {
    const c = new CatalogVerdictCache();
    c.remember('a', findings, '100:105:100,103');
    expect(c.confirmed('a', c.lookup('a')!, '100:105:100')).toBeUndefined();
    expect(c.lookup('a')).toBeUndefined();
    c.remember('b', findings, '100:105:100');
    expect(c.confirmed('b', c.lookup('b')!, '100:106:100')).toBeUndefined();
    c.remember('c', findings, '100:105:100');
    expect(c.confirmed('c', c.lookup('c')!, 'garbage')).toBeUndefined();
    c.remember('d', findings, '100:105:100');
    expect(c.confirmed('d', c.lookup('d')!, '100:104:100')).toBeUndefined();
  });

  it("forgives only this process's own harmless transactions: the probe's always, the request's when strict", () => {
    const strict = new CatalogVerdictCache();
    strict.remember('q', findings, '105:105:');
    strict.rememberOwn('105', ['105', '106'], true, '105:105:');
    expect(strict.confirmed('q', strict.lookup('q')!, '107:107:')).toEqual(findings);

    const moderate = new CatalogVerdictCache();
    moderate.remember('q', findings, '105:105:');
    moderate.rememberOwn('105', ['105', '106'], false, '105:105:');
    // The moderate agent's own transaction may have committed a write: not forgiven.
    expect(moderate.confirmed('q', moderate.lookup('q')!, '107:107:')).toBeUndefined();
    moderate.remember('r', findings, '107:107:');
    moderate.rememberOwn('107', ['107', '108'], false, '107:107:');
    expect(moderate.confirmed('r', moderate.lookup('r')!, '108:108:107')).toEqual(findings);
  });

  it('widens 32-bit lock-table ids with the snapshot epoch', () => {
    const c = new CatalogVerdictCache();
    const base = (1n << 32n) * 3n + 10n;
    c.remember('q', findings, `${base}:${base}:`);
    c.rememberOwn(String(base), ['10', '11'], true, `${base}:${base}:`);
    expect(c.confirmed('q', c.lookup('q')!, `${base + 2n}:${base + 2n}:`)).toEqual(findings);
  });
});
