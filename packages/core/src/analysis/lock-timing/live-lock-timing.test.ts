import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../../test/support/scratch-database';
import { analyzeStatements } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import { buildSnapshot } from '../snapshot-builder';
import { liveLockTiming, lockTimeoutBefore } from './live-lock-timing';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
beforeAll(async () => {
  db = await createScratchDatabase('lt');
  await sql(db.url, `CREATE TABLE big (id bigint PRIMARY KEY, a int, t text); INSERT INTO big SELECT g, g % 100, 'x' || g FROM generate_series(1, 50000) g`);
  await sql(db.url, 'VACUUM ANALYZE big');
});
afterAll(() => db.drop());

async function timing(migration: string) {
  const parsed = await parseStatements(migration);
  const facts = analyzeStatements(parsed, buildSchemaIndex(buildSnapshot([]))).map((i) => i.facts);
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return await liveLockTiming(c, parsed, facts);
  } finally {
    await c.end();
  }
}

describe('live lock timing', () => {
  it('probes the target and carries the calibrated hold time over, with its range and basis', async () => {
    const r = await timing('ALTER TABLE big ALTER COLUMN a TYPE bigint; UPDATE big SET a = 1 WHERE id <= 5000');
    expect(r.probeMs).toBeGreaterThan(0);
    const [alter, update] = r.statements;
    expect(alter!.estimate!.cls).toBe('rewrite_type');
    expect(alter!.estimate!.low).toBeLessThan(alter!.estimate!.ms);
    expect(alter!.estimate!.high).toBeGreaterThan(alter!.estimate!.ms);
    expect(alter!.warnings[0]).toMatch(
      /^\[lock-timing\] Holds ACCESS EXCLUSIVE on public.big for about .* extrapolated to 50,000 rows .* target probed [\d.]+x/,
    );
    // The planner's estimate of the WHERE, not a fixed share: about 5,000 rows touched.
    expect(update!.estimate!.basis).toMatch(/ [45],\d{3} rows changed/);
  });

  it('reports the sessions a lock would queue behind and how lock_timeout retries behave', async () => {
    const holder = new pg.Client({ connectionString: db.url, application_name: 'report-job' });
    await holder.connect();
    try {
      await holder.query('BEGIN; SELECT count(*) FROM big');
      const none = await timing('ALTER TABLE big ADD COLUMN b int');
      expect(none.statements[0]!.warnings.join()).toMatch(
        /\[lock-queue\] ACCESS EXCLUSIVE on public.big would queue behind pid \d+ \(holds ACCESS SHARE, idle in transaction, transaction open \d+ s, report-job\): without lock_timeout it waits/,
      );
      const withTimeout = await timing("SET lock_timeout = '2s'; ALTER TABLE big ADD COLUMN b int");
      expect(withTimeout.statements[1]!.warnings.join()).toContain('with lock_timeout = 2000 ms each attempt gives up after 2000 ms');
      // An index build (SHARE) does not conflict with a reader's ACCESS SHARE.
      expect((await timing('CREATE INDEX ON big (a)')).statements[0]!.warnings.join()).not.toContain('lock-queue');
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });

  it('reads lock_timeout from the migration', async () => {
    const p = await parseStatements("SET lock_timeout = '3s'; SET lock_timeout TO 500; SELECT 1");
    expect(lockTimeoutBefore(p, 1)).toBe(3000);
    expect(lockTimeoutBefore(p, 2)).toBe(500);
  });
});
