import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { only, type PreflightFixture, preflightFixture } from '../../../../../test/support/preflight';

let fx: PreflightFixture;
beforeAll(async () => {
  fx = await preflightFixture(`
    CREATE TABLE users (id int PRIMARY KEY, email text, nick text);
    INSERT INTO users SELECT g, CASE WHEN g IN (7, 70) THEN NULL ELSE 'u' || g || '@example.com' END, 'n' || g FROM generate_series(1, 5000) g;
    CREATE TABLE empty_t (id int);
    CREATE TABLE nokey (a int, b int);
    INSERT INTO nokey VALUES (1, NULL), (NULL, 2);
    ANALYZE;
  `);
});
afterAll(() => fx.drop());

describe('preflight: NULLs', () => {
  it('fails SET NOT NULL on a column holding NULLs, naming the rows', async () => {
    const r = await fx.preflight('ALTER TABLE users ALTER COLUMN email SET NOT NULL');
    const f = only(r, 'preflight_not_null');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('2 of 5,000 rows have NULL in email');
    expect(f.detail).toContain('id = 7');
    expect(r.passed).toBe(false);
  });

  it('passes SET NOT NULL on a full column', async () => {
    const r = await fx.preflight('ALTER TABLE users ALTER COLUMN nick SET NOT NULL');
    expect(only(r, 'preflight_not_null').status).toBe('passed');
    expect(r.passed).toBe(true);
  });

  it('checks every primary key column and names rows by ctid without a key', async () => {
    const f = only(await fx.preflight('ALTER TABLE nokey ADD PRIMARY KEY (a, b)'), 'preflight_not_null');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('1 of 2 rows have NULL in a');
    expect(f.detail).toContain('1 of 2 rows have NULL in b');
    expect(f.detail).toContain('ctid (0,');
  });

  it('fails ADD COLUMN NOT NULL without default on a table with rows, passes on an empty one', async () => {
    expect(only(await fx.preflight('ALTER TABLE users ADD COLUMN age int NOT NULL'), 'preflight_not_null').status).toBe('failed');
    expect(only(await fx.preflight('ALTER TABLE empty_t ADD COLUMN age int NOT NULL'), 'preflight_not_null').status).toBe('passed');
    expect((await fx.preflight('ALTER TABLE users ADD COLUMN age int NOT NULL DEFAULT 0')).findings).toEqual([]);
  });

  it('says when it sampled', async () => {
    const f = only(await fx.preflight('ALTER TABLE users ALTER COLUMN nick SET NOT NULL', { sampleAboveBytes: 1, sampleBytes: 8192 }), 'preflight_not_null');
    expect(f.sampled).toBe(true);
    expect(f.detail).toMatch(/sampled: .* % of the table's pages/);
  });

  it('skips what an earlier statement changes, and columns the migration creates', async () => {
    const r = await fx.preflight("UPDATE users SET email = 'x' WHERE email IS NULL; ALTER TABLE users ALTER COLUMN email SET NOT NULL");
    const f = only(r, 'preflight_not_null');
    expect(f.status).toBe('skipped');
    expect(f.detail).toContain('statement 0 (UPDATE) changes the rows of public.users first');
    expect(r.passed).toBe(true);
    const g = only(await fx.preflight('ALTER TABLE users ADD COLUMN z int; ALTER TABLE users ALTER COLUMN z SET NOT NULL'), 'preflight_not_null');
    expect(g.status).toBe('skipped');
  });

  it('skips, saying so, where the connection cannot read the table', async () => {
    await fx.preflight('SELECT 1'); // warm
    const { sql } = await import('../../../../../test/support/scratch-database');
    await sql(fx.url, `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pf_noread') THEN CREATE ROLE pf_noread; END IF; END $$`);
    const f = only(await fx.preflight('ALTER TABLE users ALTER COLUMN email SET NOT NULL', {}, 'pf_noread'), 'preflight_not_null');
    expect(f.status).toBe('skipped');
    expect(f.detail).toContain('cannot read public.users');
  });

  it('reports a check stuck behind an ACCESS EXCLUSIVE lock as not finished, not as a pass', async () => {
    const pg = (await import('pg')).default;
    const holder = new pg.Client({ connectionString: fx.url });
    await holder.connect();
    try {
      await holder.query('BEGIN; LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      const r = await fx.preflight('ALTER TABLE users ALTER COLUMN nick SET NOT NULL', { lockTimeoutMs: 200 });
      const f = only(r, 'preflight_not_null');
      expect(f.status).toBe('incomplete');
      expect(f.detail).toContain('lock_timeout');
      expect(r.passed).toBe(false);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });

  it('reports a statement timeout as not finished', async () => {
    const f = only(
      await fx.preflight('ALTER TABLE users ALTER COLUMN nick SET NOT NULL', { minStatementTimeoutMs: 1, maxStatementTimeoutMs: 1, bytesPerMs: 1e12 }),
      'preflight_not_null',
    );
    expect(f.status).toBe('incomplete');
    expect(f.detail).toContain('statement_timeout');
  });
});
