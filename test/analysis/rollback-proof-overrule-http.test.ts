import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport } from '@dbops/core/analysis';
import { registerConnection } from '../support/connections';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

// Issue #36, found by bench/rollback-chains.ts (pagila's 015_rental_return_after_rental): when the
// synthetic rows break a CHECK that the preflight verified on every live row, the sandbox runs
// again on an empty clone and that run decides the token. The rollback was proved only in the
// first run, which never got past the migration, so the report said `verified: null` ("the
// migration did not apply in the sandbox") beside a token for that very migration.

describe('the rollback is proved in the run that decides the token (empty clone after synthetic rows were overruled)', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let key: string;
  let connectionId: string;

  beforeAll(async () => {
    // Two sandbox runs and a round trip: a busy machine must not turn this into a deadline refusal.
    t = await startTestRuntime({ env: { DBOPS_SANDBOX_DEADLINE_MS: '120000', DBOPS_GATEWAY_TIMEOUT_SECONDS: '180' } });
    db = await createScratchDatabase('rbov');
    // Every live span ends after it starts. Without statistics (autovacuum off, no ANALYZE) the
    // synthetic rows give both columns the same value, which the new CHECK refuses.
    await sql(
      db.url,
      `CREATE TABLE spans (id int PRIMARY KEY, starts int NOT NULL, ends int NOT NULL) WITH (autovacuum_enabled = false);
       INSERT INTO spans SELECT g, g, g + 1 + g % 7 FROM generate_series(1, 400) g;`,
    );
    connectionId = (await registerConnection(t, 'rbov', db.url)).id;
    key = await t.apiKey('rbov');
    const intro = await t.request('POST', `/connections/${connectionId}/introspect`, { apiKey: key });
    expect(intro.status, intro.text).toBe(200);
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('verified true, with the round trip beside the overrule', async () => {
    const res = await t.request<AnalysisReport>('POST', `/connections/${connectionId}/migrations/analyze`, {
      apiKey: key,
      body: { sql: 'ALTER TABLE spans ADD CONSTRAINT spans_end_after_start CHECK (ends > starts)' },
    });
    expect(res.status, res.text).toBe(200);
    const r = res.body;
    const checks = r.sandbox_result.validation_results;
    expect(checks[0]).toMatchObject({ check: 'synthetic_rows_overruled', passed: true });
    expect(r.sandbox_result.passed).toBe(true);
    expect(typeof r.approval_token).toBe('string');
    expect(r.rollback_plan.verified).toBe(true);
    expect(r.rollback_plan.has_irreversible).toBe(false);
    expect(checks.find((v) => v.check === 'rollback_round_trip')).toMatchObject({ passed: true });
  }, 240_000);
});
