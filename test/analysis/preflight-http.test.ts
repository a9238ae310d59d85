import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport } from '@dbops/core/analysis';
import { registerConnection } from '../support/connections';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const SLOW = 240_000;

/**
 * A 200,000-row table with planted bad rows and its clean twin. Each has orgs to point at,
 * a text balance column and a plan column; the bad one has one NULL nickname, duplicate
 * e-mails, an orphan org id, a plan outside ('free', 'pro') and a balance that is no number.
 */
const twin = (name: string, bad: boolean) => `
  CREATE TABLE ${name} (id bigint PRIMARY KEY, email text NOT NULL, nickname text, org_id int, plan text NOT NULL, balance text);
  INSERT INTO ${name} SELECT g, 'user' || g || '@example.com', 'nick' || g, 1 + g % 1000, CASE WHEN g % 3 = 0 THEN 'pro' ELSE 'free' END, (g % 5000)::text || '.25'
    FROM generate_series(1, 200000) g;
  ${
    bad
      ? `
  UPDATE ${name} SET nickname = NULL WHERE id = 4711;
  UPDATE ${name} SET email = 'user10@example.com' WHERE id IN (150000, 160000);
  UPDATE ${name} SET org_id = 999999 WHERE id = 77777;
  UPDATE ${name} SET plan = 'enterprise' WHERE id = 123;
  UPDATE ${name} SET balance = 'twelve' WHERE id = 199999;`
      : ''
  }`;

const MIGRATION = (t: string) =>
  [
    `ALTER TABLE ${t} ALTER COLUMN nickname SET NOT NULL`,
    `CREATE UNIQUE INDEX ${t}_email_key ON ${t} (email)`,
    `ALTER TABLE ${t} ADD CONSTRAINT ${t}_org_fk FOREIGN KEY (org_id) REFERENCES orgs (id)`,
    `ALTER TABLE ${t} ADD CONSTRAINT ${t}_plan_ok CHECK (plan IN ('free', 'pro'))`,
    `ALTER TABLE ${t} ALTER COLUMN balance TYPE numeric USING balance::numeric`,
  ].join(';\n');

interface WriteCounters {
  relname: string;
  n_tup_ins: string;
  n_tup_upd: string;
  n_tup_del: string;
  n_tup_hot_upd: string;
}

describe('preflight through HTTP: a migration that would fail on the live data gets no token', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let key: string;
  let connectionId: string;
  const analyze = (sqlText: string) =>
    t.request<AnalysisReport>('POST', `/connections/${connectionId}/migrations/analyze`, { apiKey: key, body: { sql: sqlText } });
  const counters = async () => {
    // pg_stat views lag behind; forcing a fresh snapshot makes two reads comparable.
    const rows = await sql<WriteCounters>(
      db.url,
      `SELECT pg_stat_clear_snapshot(); SELECT relname, n_tup_ins::text, n_tup_upd::text, n_tup_del::text, n_tup_hot_upd::text FROM pg_stat_user_tables ORDER BY relname`,
    );
    return rows;
  };

  beforeAll(async () => {
    t = await startTestRuntime();
    db = await createScratchDatabase('pfh');
    await sql(
      db.url,
      `CREATE TABLE orgs (id int PRIMARY KEY); INSERT INTO orgs SELECT generate_series(1, 1000);${twin('accounts', true)}${twin('accounts_clean', false)}`,
    );
    await sql(db.url, 'VACUUM ANALYZE');
    connectionId = (await registerConnection(t, 'pf', db.url)).id;
    key = await t.apiKey('pf');
    const intro = await t.request('POST', `/connections/${connectionId}/introspect`, { apiKey: key });
    expect(intro.status, intro.text).toBe(200);
  }, SLOW);

  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it(
    'refuses the planted table with a reason per statement, passes the clean twin, and leaves the target untouched',
    async () => {
      // Let the statistics collector settle the setup's writes before the baseline.
      await new Promise((r) => setTimeout(r, 1500));
      const before = await counters();

      const bad = await analyze(MIGRATION('accounts'));
      expect(bad.status, bad.text).toBe(200);
      const r = bad.body;
      expect(r.approval_token).toBeNull();
      expect(r.sandbox_result.passed).toBe(false);
      expect(r.sandbox_result.migration_error).toMatch(/^(Preflight on the live data: statement 0 would fail|Statement \d)/);
      const failed = r.sandbox_result.validation_results.filter((v) => v.check.startsWith('preflight_') && !v.passed).map((v) => v.detail);
      expect(failed).toHaveLength(5);
      expect(failed[0]).toMatch(
        /^Statement 0 \(FAILED\): SET NOT NULL on public.accounts would fail: 1 of 200,000 rows have NULL in nickname \(e.g. id = 4711\)/,
      );
      expect(failed[1]).toMatch(
        /^Statement 1 \(FAILED\): CREATE UNIQUE INDEX on public.accounts would fail: 1 duplicate key value\(s\) of \(email\) over 3 rows, e.g. \(u\*\*\*@\*\*\*.com\) x3/,
      );
      expect(failed[2]).toMatch(
        /^Statement 2 \(FAILED\): ADD FOREIGN KEY public.accounts \(org_id\) -> public.orgs \(id\) would fail: 1 row\(s\) reference no row of public.orgs, e.g. 999999/,
      );
      expect(failed[3]).toMatch(/^Statement 3 \(FAILED\): ADD CHECK .* would fail: 1 row\(s\) violate it, e.g. id = 123 \(plan = enterprise\)/);
      expect(failed[4]).toMatch(
        /^Statement 4 \(FAILED\): ALTER COLUMN balance TYPE numeric USING .* would fail: 1 value\(s\) do not convert, e.g. id = 199999 \(balance = twelve\); first error: invalid input syntax for type numeric: "…"/,
      );
      expect(r.warnings.join('\n')).toContain('Preflight: 5 statement check(s) would fail on the live data');

      const clean = await analyze(MIGRATION('accounts_clean'));
      expect(clean.status, clean.text).toBe(200);
      const preflight = clean.body.sandbox_result.validation_results.filter((v) => v.check.startsWith('preflight_'));
      expect(preflight.map((v) => v.check)).toEqual([
        'preflight_not_null',
        'preflight_unique',
        'preflight_foreign_key',
        'preflight_check_constraint',
        'preflight_type_cast',
      ]);
      expect(
        preflight.every((v) => v.passed && /\(passed\)/.test(v.detail)),
        JSON.stringify(preflight),
      ).toBe(true);
      expect(clean.body.sandbox_result.passed, JSON.stringify(clean.body.sandbox_result)).toBe(true);
      expect(clean.body.approval_token).toEqual(expect.any(String));

      // Calibrated lock times: the figure and how it was obtained.
      expect(clean.body.statements[4]!.warnings.join('\n')).toMatch(
        /\[lock-timing\] Holds ACCESS EXCLUSIVE on public.accounts_clean for about .* rewrite_type calibrated at/,
      );

      await new Promise((r) => setTimeout(r, 1500));
      expect(await counters()).toEqual(before);
    },
    SLOW,
  );

  it(
    'gives no token when the target cannot be reached for the preflight',
    async () => {
      const gone = await createScratchDatabase('pfg');
      await sql(gone.url, 'CREATE TABLE t (id int PRIMARY KEY, a int); INSERT INTO t VALUES (1, 1)');
      const id = (await registerConnection(t, 'pf', gone.url)).id;
      expect((await t.request('POST', `/connections/${id}/introspect`, { apiKey: key })).status).toBe(200);
      await gone.drop();
      const res = await t.request<AnalysisReport>('POST', `/connections/${id}/migrations/analyze`, {
        apiKey: key,
        body: { sql: 'ALTER TABLE t ALTER COLUMN a SET NOT NULL' },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.approval_token).toBeNull();
      expect(res.body.sandbox_result.passed).toBe(false);
      expect(res.body.sandbox_result.validation_results).toContainEqual(
        expect.objectContaining({ check: 'preflight', passed: false, detail: expect.stringMatching(/^Preflight could not finish: /) }),
      );
    },
    SLOW,
  );

  it('says when it sampled a large table, and that a sample cannot prove absence', async () => {
    // The service's default samples above 1 GiB; the library limit is lowered to show the wording.
    const { applyLiveChecks, buildSnapshot, analyzeMigrationDetailed } = await import('@dbops/core/analysis');
    const pg = (await import('pg')).default;
    const analysis = await analyzeMigrationDetailed('ALTER TABLE accounts_clean ALTER COLUMN nickname SET NOT NULL', buildSnapshot([]), {
      connectionId,
      sandbox: false,
    });
    const report = analysis.report;
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await applyLiveChecks(analysis, c, {
        preflight: { sampleAboveBytes: 1_000_000, sampleBytes: 2_000_000 },
        lockTiming: false,
      });
    } finally {
      await c.end();
    }
    const v = report.sandbox_result.validation_results.find((x) => x.check === 'preflight_not_null')!;
    expect(v.passed).toBe(true);
    expect(v.detail).toMatch(/^Statement 0 \(passed, sampled\): .*sampled: [\d.]+ % of the table's pages; rows outside the sample were not checked/);
  });
});
