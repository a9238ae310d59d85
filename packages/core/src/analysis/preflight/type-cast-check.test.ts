import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../../../../test/support/scratch-database';
import { only, type PreflightFixture, preflightFixture } from '../../../../../test/support/preflight';

let fx: PreflightFixture;
beforeAll(async () => {
  fx = await preflightFixture(`
    CREATE TABLE wallets (id int PRIMARY KEY, balance text, label varchar(40), amount numeric);
    INSERT INTO wallets SELECT g, (g * 1.5)::text, 'w' || g, g FROM generate_series(1, 20000) g;
    UPDATE wallets SET balance = 'n/a' WHERE id IN (1234, 15000);
    UPDATE wallets SET label = 'a much longer label than ten' WHERE id = 77;
    UPDATE wallets SET amount = 1e9 WHERE id = 19999;
    CREATE TABLE audit (x int);
    CREATE FUNCTION noisy(t text) RETURNS numeric LANGUAGE sql VOLATILE AS 'INSERT INTO audit VALUES (1) RETURNING 1::numeric';
    CREATE FUNCTION sneaky(t text) RETURNS numeric LANGUAGE plpgsql IMMUTABLE AS 'BEGIN INSERT INTO audit VALUES (1); RETURN 1; END';
  `);
});
afterAll(() => fx.drop());

describe('preflight: failed casts', () => {
  it('text -> numeric: counts failing values with pg_input_is_valid and gives the first error', async () => {
    const f = only(await fx.preflight('ALTER TABLE wallets ALTER COLUMN balance TYPE numeric USING balance::numeric'), 'preflight_type_cast');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('2 value(s) do not convert');
    expect(f.detail).toContain('id = 1234 (balance = n/a)');
    // The server's message quotes the value; the detail repeats its sentence without it (the example is masked separately).
    expect(f.detail).toContain('first error: invalid input syntax for type numeric: "…"');
  });

  it('an arbitrary USING expression: evaluated read-only, failing rows found by bisection', async () => {
    const f = only(
      await fx.preflight("ALTER TABLE wallets ALTER COLUMN balance TYPE numeric(12,2) USING nullif(trim(balance), '')::numeric * 2"),
      'preflight_type_cast',
    );
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('at least 2 row(s) do not convert');
    expect(f.detail).toContain('id = 1234');
    expect(f.detail).toContain('id = 15000');
    expect(f.detail).toContain('invalid input syntax for type numeric');
  });

  it('numeric overflow and varchar narrowing fail like the assignment would', async () => {
    const o = only(await fx.preflight('ALTER TABLE wallets ALTER COLUMN amount TYPE numeric(10,2)'), 'preflight_type_cast');
    expect(o.status).toBe('failed');
    expect(o.detail).toContain('id = 19999');
    expect(o.detail).toContain('numeric field overflow');
    const n = only(await fx.preflight('ALTER TABLE wallets ALTER COLUMN label TYPE varchar(10)'), 'preflight_type_cast');
    expect(n.status).toBe('failed');
    expect(n.detail).toContain('id = 77');
    expect(only(await fx.preflight('ALTER TABLE wallets ALTER COLUMN amount TYPE bigint'), 'preflight_type_cast').status).toBe('passed');
  });

  it('never writes: a USING that calls a writing function is not evaluated, whatever its volatility label', async () => {
    const v = only(await fx.preflight('ALTER TABLE wallets ALTER COLUMN balance TYPE numeric USING noisy(balance)'), 'preflight_type_cast');
    expect(v.status).toBe('skipped');
    expect(v.unverified).toBe(true);
    expect(v.detail).toMatch(/not verified on the live data: the expression calls .*noisy.*which may change the database/);
    // Labelled IMMUTABLE, judged by its body: not even planned.
    const s = only(await fx.preflight('ALTER TABLE wallets ALTER COLUMN balance TYPE numeric USING sneaky(balance)'), 'preflight_type_cast');
    expect(s.status).toBe('skipped');
    expect(s.detail).toMatch(/not verified on the live data: the expression calls .*sneaky/);
    expect(await sql(fx.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 0 }]);
  });
});
