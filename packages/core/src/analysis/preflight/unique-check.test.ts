import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { only, type PreflightFixture, preflightFixture } from '../../../../../test/support/preflight';

let fx: PreflightFixture;
beforeAll(async () => {
  fx = await preflightFixture(`
    CREATE TABLE accounts (id int, email text, sku text, deleted boolean NOT NULL DEFAULT false);
    INSERT INTO accounts SELECT g, 'user' || g || '@example.com', 'SKU' || g, false FROM generate_series(1, 3000) g;
    INSERT INTO accounts VALUES (3001, 'user5@example.com', 'SKU-A', false), (3002, 'USER5@example.com', 'SKU-A', false), (3003, NULL, NULL, false), (3004, NULL, NULL, false), (3005, 'user9@example.com', 'SKU9', true);
  `);
});
afterAll(() => fx.drop());

describe('preflight: duplicate keys', () => {
  it('fails CREATE UNIQUE INDEX on duplicate e-mails, masking them', async () => {
    const f = only(await fx.preflight('CREATE UNIQUE INDEX CONCURRENTLY accounts_email ON accounts (email)'), 'preflight_unique');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('2 duplicate key value(s) of (email) over 4 rows');
    expect(f.detail).toContain('u***@***.com');
    expect(f.detail).not.toContain('user5@example.com');
  });

  it('follows expressions, partial predicates and NULLS NOT DISTINCT', async () => {
    const lower = only(await fx.preflight('CREATE UNIQUE INDEX a_lower ON accounts (lower(email)) WHERE NOT deleted'), 'preflight_unique');
    expect(lower.detail).toContain('1 duplicate key value(s) of (lower(email)) over 3 rows');
    expect(only(await fx.preflight('CREATE UNIQUE INDEX a_live ON accounts (email) WHERE NOT deleted AND id < 3001'), 'preflight_unique').status).toBe(
      'passed',
    );
    const nnd = only(await fx.preflight('ALTER TABLE accounts ADD CONSTRAINT u UNIQUE NULLS NOT DISTINCT (sku)'), 'preflight_unique');
    expect(nnd.detail).toContain('(NULL) x2');
    expect(nnd.detail).toContain('(SKU-A) x2');
  });

  it('checks ADD PRIMARY KEY for duplicates and NULLs, passes clean keys', async () => {
    const r = await fx.preflight('ALTER TABLE accounts ADD PRIMARY KEY (id)');
    expect(only(r, 'preflight_unique').status).toBe('passed');
    expect(only(r, 'preflight_not_null').status).toBe('passed');
    expect(r.passed).toBe(true);
    const bad = await fx.preflight('ALTER TABLE accounts ADD CONSTRAINT pk PRIMARY KEY (sku)');
    expect(only(bad, 'preflight_unique').status).toBe('failed');
    expect(only(bad, 'preflight_not_null').status).toBe('failed');
  });
});
