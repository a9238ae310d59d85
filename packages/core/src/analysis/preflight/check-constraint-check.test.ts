import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../../../../test/support/scratch-database';
import { only, type PreflightFixture, preflightFixture } from '../../../../../test/support/preflight';

let fx: PreflightFixture;
beforeAll(async () => {
  fx = await preflightFixture(`
    CREATE TABLE subs (id int PRIMARY KEY, plan text, seats int, email text);
    INSERT INTO subs SELECT g, CASE WHEN g % 2 = 0 THEN 'free' ELSE 'pro' END, g % 10, 'a' || g || '@x.org' FROM generate_series(1, 2000) g;
    INSERT INTO subs VALUES (3000, 'enterprise', 5, 'boss@corp.com'), (3001, NULL, -1, NULL);
    CREATE TABLE audit (x int);
    CREATE FUNCTION noisy(t text) RETURNS boolean LANGUAGE sql VOLATILE AS 'INSERT INTO audit VALUES (1) RETURNING true';
    CREATE DOMAIN positive_int AS int;
    CREATE TABLE seats (id int PRIMARY KEY, n positive_int);
    INSERT INTO seats VALUES (1, 3), (2, 0), (3, NULL);
  `);
});
afterAll(() => fx.drop());

describe('preflight: CHECK and domain constraints', () => {
  it('fails ADD CHECK on violating rows and shows the values read (NULL passes, as in PostgreSQL)', async () => {
    const f = only(await fx.preflight("ALTER TABLE subs ADD CONSTRAINT plan_ok CHECK (plan IN ('free', 'pro'))"), 'preflight_check_constraint');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('1 row(s) violate it');
    expect(f.detail).toContain('id = 3000 (plan = enterprise)');
  });

  it('masks sensitive columns in examples and skips NOT VALID', async () => {
    const f = only(await fx.preflight("ALTER TABLE subs ADD CHECK (email LIKE '%@x.org')"), 'preflight_check_constraint');
    expect(f.detail).toContain('email = b***@***.com');
    expect((await fx.preflight('ALTER TABLE subs ADD CHECK (seats >= 0) NOT VALID')).findings).toEqual([]);
    expect(only(await fx.preflight('ALTER TABLE subs ADD CHECK (seats >= -1)'), 'preflight_check_constraint').status).toBe('passed');
  });

  it('cannot write: a condition calling a writing function is not evaluated on the live data', async () => {
    const f = only(await fx.preflight('ALTER TABLE subs ADD CHECK (noisy(plan))'), 'preflight_check_constraint');
    expect(f.status).toBe('skipped');
    expect(f.unverified).toBe(true);
    expect(f.detail).toMatch(/not verified on the live data: the expression calls .*noisy/);
    expect(await sql(fx.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 0 }]);
  });

  it('ALTER DOMAIN ADD CONSTRAINT and SET NOT NULL check the columns of the domain', async () => {
    const f = only(await fx.preflight('ALTER DOMAIN positive_int ADD CONSTRAINT pos CHECK (VALUE > 0)'), 'preflight_domain_constraint');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('public.seats.n would fail: 1 row(s) violate it');
    expect(only(await fx.preflight('ALTER DOMAIN positive_int SET NOT NULL'), 'preflight_domain_constraint').status).toBe('failed');
    expect(only(await fx.preflight('ALTER DOMAIN positive_int ADD CHECK (VALUE >= 0)'), 'preflight_domain_constraint').status).toBe('passed');
  });
});
