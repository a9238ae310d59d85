import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../test/support/scratch-database';
import { analyzeMigrationDetailed } from './analyze-migration';
import { applyLiveChecks } from './live-checks';
import { readTargetSchema } from '../introspection/catalog-read';
import { buildSnapshot } from './snapshot-builder';
import type { AnalysisReport, SandboxResult } from './types';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
beforeAll(async () => {
  db = await createScratchDatabase('lc');
  await sql(
    db.url,
    `CREATE TABLE orgs (id int PRIMARY KEY); INSERT INTO orgs SELECT generate_series(1, 10);
    CREATE TABLE members (id int PRIMARY KEY, org_id int); INSERT INTO members SELECT g, 1 + g % 10 FROM generate_series(1, 100) g;
    CREATE TABLE loose (id int PRIMARY KEY, org_id int); INSERT INTO loose VALUES (1, 99);`,
  );
});
afterAll(() => db.drop());

const EMPTY_RUN: SandboxResult = {
  passed: true,
  migration_applied: true,
  migration_error: null,
  tables_created: 2,
  rows_inserted: 0,
  validation_results: [],
  duration_ms: 5,
};

async function check(migration: string, sandboxError: string) {
  const analysis = await analyzeMigrationDetailed(migration, buildSnapshot([]), { connectionId: 'c', sandbox: false });
  const report: AnalysisReport = analysis.report;
  report.sandbox_result = { ...report.sandbox_result, passed: false, migration_error: sandboxError };
  let reruns = 0;
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    await applyLiveChecks(analysis, c, { lockTiming: false, sandboxWithoutRows: async () => (reruns++, structuredClone(EMPTY_RUN)) });
  } finally {
    await c.end();
  }
  return { report, reruns };
}

describe('synthetic rows do not decide data questions the preflight answered', () => {
  it('a data error of the synthetic rows on a statement the preflight verified on every live row: the empty-clone run decides', async () => {
    const { report, reruns } = await check(
      'ALTER TABLE members ADD FOREIGN KEY (org_id) REFERENCES orgs (id)',
      'Statement 0 (ALTER_TABLE_ADD_FOREIGN_KEY) failed: insert or update on table "members" violates foreign key constraint "x"',
    );
    expect(reruns).toBe(1);
    expect(report.sandbox_result.passed).toBe(true);
    expect(report.sandbox_result.validation_results[0]).toMatchObject({ check: 'synthetic_rows_overruled', passed: true });
    expect(report.sandbox_result.validation_results.find((v) => v.check === 'preflight_foreign_key')?.passed).toBe(true);
  });

  it('not when the live data fails too, nor for errors that are not about data', async () => {
    const bad = await check(
      'ALTER TABLE loose ADD FOREIGN KEY (org_id) REFERENCES orgs (id)',
      'Statement 0 (ALTER_TABLE_ADD_FOREIGN_KEY) failed: insert or update on table "loose" violates foreign key constraint "x"',
    );
    expect(bad.reruns).toBe(0);
    expect(bad.report.sandbox_result.passed).toBe(false);
    // The reason given is the live rows' (with an example), not the synthetic rows' error.
    expect(bad.report.sandbox_result.migration_error).toMatch(
      /^Preflight on the live data: statement 0 would fail: .*1 row\(s\) reference no row of public\.orgs, e\.g\. 99/,
    );
    const schema = await check(
      'ALTER TABLE members ADD FOREIGN KEY (org_id) REFERENCES orgs (id)',
      'Statement 0 (ALTER_TABLE_ADD_FOREIGN_KEY) failed: relation "orgz" does not exist',
    );
    expect(schema.reruns).toBe(0);
    expect(schema.report.sandbox_result.passed).toBe(false);
    expect(schema.report.sandbox_result.migration_error).toMatch(/relation "orgz" does not exist/);
  });
});

describe('lock hold time of a validation scan', () => {
  it("comes from the preflight's scan of every row when there is one: a costly condition is priced as measured", async () => {
    await sql(db.url, `CREATE TABLE notes (id int PRIMARY KEY, code text NOT NULL); INSERT INTO notes SELECT g, 'n' || g FROM generate_series(1, 600000) g`);
    await sql(db.url, 'VACUUM ANALYZE notes');
    const migration = "ALTER TABLE notes ADD CONSTRAINT notes_code CHECK (code ~ '^n[0-9]+$' AND length(regexp_replace(code, '[0-9]', 'x', 'g')) < 20)";
    const analysis = await analyzeMigrationDetailed(migration, buildSnapshot([]), { connectionId: 'c', sandbox: false });
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { preflight } = await applyLiveChecks(analysis, c);
      const scan = preflight.findings.find((f) => f.check === 'preflight_check_constraint')!;
      expect(scan.status).toBe('passed');
      expect(scan.duration_ms).toBeGreaterThanOrEqual(20);
      const timing = analysis.report.statements[0]!.warnings.find((w) => w.startsWith('[lock-timing]'))!;
      expect(timing).toMatch(new RegExp(`the preflight's scan of every row took ${Math.round(scan.duration_ms)} ms on the target`));
      // A CHECK's validation takes 0.74x of the check's time (measured: SCAN_RATIOS).
      expect(analysis.report.statements[0]!.lock_duration_ms).toBeCloseTo(scan.duration_ms * 0.74, -1);
    } finally {
      await c.end();
    }
  });

  it('of a column widened without a rewrite under a CHECK: the CHECK checked again is timed by the preflight, not priced as a catalog change', async () => {
    await sql(
      db.url,
      `CREATE TABLE handles (id int PRIMARY KEY, name varchar(30) NOT NULL CHECK (name ~ '^[a-z]+[0-9]*$' AND length(name) >= 2));
       INSERT INTO handles SELECT g, 'h' || g FROM generate_series(1, 600000) g`,
    );
    await sql(db.url, 'VACUUM ANALYZE handles');
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      // Analysed against the schema as it stands, as the service analyses against its snapshot.
      const snapshot = { snapshot_id: 's', connection_id: 'c', introspected_at: new Date().toISOString(), ...(await readTargetSchema(c)) };
      const analysis = await analyzeMigrationDetailed('ALTER TABLE handles ALTER COLUMN name TYPE varchar(60)', snapshot, {
        connectionId: 'c',
        sandbox: false,
      });
      const { preflight } = await applyLiveChecks(analysis, c);
      const scan = preflight.findings.find((f) => f.check === 'preflight_recheck_constraint')!;
      expect(scan.status).toBe('passed');
      const timing = analysis.report.statements[0]!.warnings.find((w) => w.startsWith('[lock-timing]'))!;
      expect(timing).toMatch(new RegExp(`the preflight's scan of every row took ${Math.round(scan.duration_ms)} ms on the target`));
      expect(analysis.report.statements[0]!.lock_duration_ms).toBeGreaterThan(5);
    } finally {
      await c.end();
    }
  });
});
