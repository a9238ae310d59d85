import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../test/support/scratch-database';
import { analyzeMigrationDetailed } from './analyze-migration';
import { applyLiveChecks } from './live-checks';
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
