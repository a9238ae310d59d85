import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse } from '../support/test-runtime';
import { type ConnectedRuntime, startConnectedRuntime } from '../support/connections';

// A deadline short enough for a test, long enough for a thread to start and clone under load
// (the endless runs burn a core each until it: every second here is a second of the suite's CPU).
// The server gets longer: three runs at once each clone on it before they start.
const DEADLINES_MS = { pglite: 8_000, embedded: 12_000 } as const;

const HOSTILE: ReadonlyArray<readonly [string, string]> = [
  ['an endless DO loop', 'DO $$ BEGIN LOOP END LOOP; END $$'],
  ['a runaway recursive query', 'CREATE TABLE runaway AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) AS n FROM r'],
  ['a huge CREATE TABLE AS', 'CREATE TABLE huge AS SELECT g, md5(g::text) AS h FROM generate_series(1, 2000000000) g'],
];

// Both engines: PGlite on sandbox threads, and a private PostgreSQL server of the target's
// version (another process, statement_timeout and the hard deadline).
describe.each([
  ['PGlite on sandbox threads', 'pglite'],
  ['an embedded PostgreSQL server', 'embedded'],
] as const)('one analysis cannot stop the service (%s)', { timeout: 120_000 }, (_engine, engine) => {
  const DEADLINE_MS = DEADLINES_MS[engine];
  let env: ConnectedRuntime;
  let otherKey: string;

  beforeAll(async () => {
    env = await startConnectedRuntime({
      prefix: 'isolation',
      user: 'loop-author',
      setupSql: 'CREATE TABLE accounts (id int PRIMARY KEY, name text NOT NULL)',
      env: { DBOPS_SANDBOX_DEADLINE_MS: String(DEADLINE_MS), DBOPS_SANDBOX_ENGINE: engine },
    });
    otherKey = await env.t.apiKey('bystander');
  }, 120_000);
  afterAll(() => env?.close());

  const analyze = (sql: string) => env.t.request('POST', `/connections/${env.connectionId}/migrations/analyze`, { apiKey: env.apiKey, body: { sql } });

  /** Other users' and unauthenticated requests answer at once while the sandbox is busy. */
  const othersAnswer = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      const [health, theirs] = await Promise.all([env.t.request('GET', '/health'), env.t.request('GET', '/billing/balance', { apiKey: otherKey })]);
      expect(health.status).toBe(200);
      expect(theirs.status).toBe(200);
      // Answered while the sandbox was still busy, and well inside the deadline.
      expect(Date.now() - t0).toBeLessThan(DEADLINE_MS / 2);
    }
  };

  /** The analysis ended at its deadline (or, on the server, its statement budget or temp-file limit), without a token. */
  const expectStopped = (res: ApiResponse, what: string): void => {
    expect(res.status, `${what}: ${res.text}`).toBe(200);
    expect(res.body.approval_token ?? null, what).toBeNull();
    expect(res.body.sandbox_result.passed, what).toBe(false);
    if (engine === 'pglite') {
      expect(res.body.sandbox_result.validation_results, what).toContainEqual(expect.objectContaining({ check: 'deadline', passed: false }));
      // The deadline from the request's start, less the first introspection.
      expect(res.body.sandbox_result.migration_error, what).toMatch(/did not finish within [6-8] s and was stopped/);
    } else {
      // The server cancels the statement when the 10 s apply budget runs out (statement_timeout),
      // or stops the huge one at its temp_file_limit, or the 12 s hard deadline ends the run
      // (a cold start and clone under load); every way the run ends, without a token.
      expect(res.body.sandbox_result.migration_error, what).toMatch(
        /sandbox timeout: exceeded 10000 ms in statement 0|did not finish within 1[12] s|temporary file size exceeds temp_file_limit/,
      );
      expect(res.body.sandbox_result.validation_results, what).toContainEqual({
        check: 'engine',
        passed: true,
        detail: expect.stringMatching(/^PostgreSQL 17\./),
      });
    }
  };

  if (engine === 'pglite') {
    // One at a time: each stopped thread is replaced, and on a loaded machine three replacements
    // starting together could not clone for the next analysis within its deadline.
    it.each(HOSTILE)('%s: other requests answer meanwhile, and the analysis ends at its deadline without a token', async (what, sql) => {
      const started = Date.now();
      let analysisDone = false;
      const analysis = analyze(sql).then((r) => {
        analysisDone = true;
        return r;
      });
      // Give the run time to start and block its thread.
      await new Promise((r) => setTimeout(r, 1500));
      await othersAnswer();
      expect(analysisDone).toBe(false);
      expectStopped(await analysis, what);
      expect(Date.now() - started).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
    });
  } else {
    // The server is another process: the three at once (within the per-user limit), each ended
    // on its own while the others still run, and the service answers meanwhile.
    it('an endless DO loop, a runaway recursive query and a huge CREATE TABLE AS at once: other requests answer meanwhile, and each analysis ends without a token', async () => {
      // The snapshot first, so that no run's deadline is spent introspecting.
      expect((await env.t.request('POST', `/connections/${env.connectionId}/introspect`, { apiKey: env.apiKey })).status).toBe(200);
      const started = Date.now();
      let analysesDone = 0;
      const analyses = HOSTILE.map(([, sql]) =>
        analyze(sql).then((r) => {
          analysesDone++;
          return r;
        }),
      );
      // Give the runs time to start.
      await new Promise((r) => setTimeout(r, 1500));
      await othersAnswer();
      expect(analysesDone).toBe(0);
      for (const [i, res] of (await Promise.all(analyses)).entries()) expectStopped(res, HOSTILE[i]![0]);
      expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 15_000);
    });
  }

  it('runs the next analysis normally (a fresh thread, or the same server)', async () => {
    const res = await analyze('ALTER TABLE accounts ADD COLUMN email text');
    expect(res.status, res.text).toBe(200);
    expect(res.body.sandbox_result.passed, JSON.stringify(res.body.sandbox_result)).toBe(true);
    expect(res.body.approval_token).toEqual(expect.any(String));
  });
});
