import {
  analyzeMigrationDetailed,
  applyLiveChecks,
  buildSnapshot,
  type LiveCheckOptions,
  riskScore,
  type TableSpec,
  type ValidationResult,
} from '@dbops/core/analysis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../support/scratch-database';

const SLOW = 120_000;

/**
 * The analysis entry the service uses after the sandbox (`applyLiveChecks` on the statements
 * `analyzeMigrationDetailed` parsed), against a real database with planted rows: exclusion
 * constraint conflicts, checks that must not trust the live catalog for objects an earlier
 * statement defines, and a risk score that follows the live lock time. The target is only read.
 */
describe('live checks through the analysis entry', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;

  beforeAll(async () => {
    db = await createScratchDatabase('ple');
    await sql(
      db.url,
      `CREATE TABLE bookings (id int PRIMARY KEY, room int, during tstzrange, cancelled boolean NOT NULL DEFAULT false);
       INSERT INTO bookings SELECT g, g % 50, tstzrange(timestamptz '2026-01-01' + g * interval '1 hour', timestamptz '2026-01-01' + (g + 1) * interval '1 hour') FROM generate_series(1, 5000) g;
       INSERT INTO bookings VALUES (9001, 7, tstzrange('2026-01-01 07:30+00', '2026-01-01 08:30+00'), false);
       CREATE TABLE bookings_clean AS SELECT * FROM bookings WHERE id < 9001;
       INSERT INTO bookings_clean VALUES (9001, 7, tstzrange('2026-01-01 07:30+00', '2026-01-01 08:30+00'), true);
       CREATE TYPE ticket_state AS ENUM ('open', 'closed');
       CREATE TABLE tickets (id int PRIMARY KEY, state text, score int);
       INSERT INTO tickets SELECT g, CASE WHEN g % 100 = 0 THEN 'parked' WHEN g % 2 = 0 THEN 'open' ELSE 'closed' END, g % 7 FROM generate_series(1, 2000) g;
       CREATE TABLE ledger (id int PRIMARY KEY, amount int);
       INSERT INTO ledger SELECT g, g % 1000 FROM generate_series(1, 300000) g;`,
    );
    await sql(db.url, 'VACUUM ANALYZE');
  }, SLOW);
  afterAll(() => db?.drop());

  /** Write counters of every user table and the number of catalog objects: equal before and after means untouched. */
  const footprint = async () => ({
    writes: await sql(
      db.url,
      `SELECT pg_stat_clear_snapshot(); SELECT relname, n_tup_ins::text, n_tup_upd::text, n_tup_del::text FROM pg_stat_user_tables ORDER BY relname`,
    ),
    objects: await sql(
      db.url,
      `SELECT (SELECT count(*) FROM pg_class)::int AS rels, (SELECT count(*) FROM pg_proc)::int AS procs, (SELECT count(*) FROM pg_type)::int AS types, (SELECT count(*) FROM pg_enum)::int AS labels, (SELECT count(*) FROM pg_constraint)::int AS cons`,
    ),
  });

  async function analyze(migration: string, tables: TableSpec[] = [], options: LiveCheckOptions = { lockTiming: false }) {
    const analysis = await analyzeMigrationDetailed(migration, buildSnapshot(tables), { connectionId: 'c', sandbox: false });
    const before = { risk: analysis.report.risk_score, ms: analysis.report.statements.map((s) => s.lock_duration_ms) };
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const result = await applyLiveChecks(analysis, c, options);
      return { analysis, report: analysis.report, before, result };
    } finally {
      await c.end();
    }
  }
  const finding = (results: ValidationResult[], check: string): ValidationResult => {
    const found = results.filter((v) => v.check === check);
    if (found.length !== 1) throw new Error(`expected one ${check}, got ${JSON.stringify(results)}`);
    return found[0]!;
  };

  it(
    'ADD CONSTRAINT ... EXCLUDE: reports the conflicting rows, honours the WHERE, and leaves the database as it was',
    async () => {
      const start = await footprint();
      const bad = await analyze(`ALTER TABLE bookings ADD CONSTRAINT no_double EXCLUDE USING gist (room WITH =, during WITH &&)`);
      const v = finding(bad.report.sandbox_result.validation_results, 'preflight_exclusion');
      expect(v.passed).toBe(false);
      expect(v.detail).toMatch(
        /^Statement 0 \(FAILED\): ADD EXCLUDE no_double on public\.bookings would fail: 2 row\(s\) conflict with another row \(room WITH =, during WITH &&\)/,
      );
      expect(v.detail).toContain('id = 7 and id = 9001');
      expect(bad.result.preflight.passed).toBe(false);

      const clean = await analyze(`ALTER TABLE bookings_clean ADD CONSTRAINT no_double EXCLUDE USING gist (room WITH =, during WITH &&) WHERE (NOT cancelled)`);
      expect(finding(clean.report.sandbox_result.validation_results, 'preflight_exclusion')).toMatchObject({
        passed: true,
        detail: expect.stringContaining('no two rows conflict'),
      });
      // Without the WHERE the cancelled booking conflicts.
      const all = await analyze(`ALTER TABLE bookings_clean ADD EXCLUDE USING gist (room WITH =, during WITH OPERATOR(pg_catalog.&&))`);
      expect(finding(all.report.sandbox_result.validation_results, 'preflight_exclusion').passed).toBe(false);
      expect(await footprint()).toEqual(start);
    },
    SLOW,
  );

  it(
    'leaves to the sandbox a check whose statement relies on a function, type or relation an earlier statement defines',
    async () => {
      const start = await footprint();
      // The function does not exist live: asking the live rows would fail to run (and block the token).
      const fn = await analyze(
        `CREATE FUNCTION score_ok(int) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT $1 >= 0';
         ALTER TABLE tickets ADD CONSTRAINT score_ok CHECK (score_ok(score))`,
      );
      expect(finding(fn.report.sandbox_result.validation_results, 'preflight_check_constraint')).toMatchObject({
        passed: true,
        detail: expect.stringContaining('skipped, statement 0 creates or changes the function score_ok it relies on'),
      });
      expect(fn.result.preflight.passed).toBe(true);

      // The live enum lacks 'parked', which the migration adds first: the live cast would fail 20 rows that will cast.
      const added = await analyze(
        `ALTER TYPE ticket_state ADD VALUE 'parked';
         ALTER TABLE tickets ALTER COLUMN state TYPE ticket_state USING state::ticket_state`,
      );
      expect(finding(added.report.sandbox_result.validation_results, 'preflight_type_cast')).toMatchObject({
        passed: true,
        detail: expect.stringContaining('skipped, statement 0 creates or changes the type ticket_state'),
      });
      // Without the earlier statement the same cast is checked on the live rows, and fails.
      const plain = await analyze(`ALTER TABLE tickets ALTER COLUMN state TYPE ticket_state USING state::ticket_state`);
      const cast = finding(plain.report.sandbox_result.validation_results, 'preflight_type_cast');
      expect(cast.passed).toBe(false);
      expect(cast.detail).toContain('parked');
      expect(await footprint()).toEqual(start);
    },
    SLOW,
  );

  it(
    "scores risk with the target's lock time, not the snapshot's",
    async () => {
      const start = await footprint();
      // The snapshot says 100 rows (stale); the live table holds 300,000.
      const ledger: TableSpec = { name: 'ledger', columns: ['id int not null', 'amount int'], primaryKey: ['id'], rows: 100, bytes: 16_384 };
      const { analysis, report, before } = await analyze('UPDATE ledger SET amount = amount + 1', [ledger], { lockTiming: true });
      const s = report.statements[0]!;
      expect(s.lock_duration_ms).toBeGreaterThan(before.ms[0]! * 10);
      expect(s.risk_score).toBe(riskScore({ ...analysis.items[0]!.risk!, durationMs: s.lock_duration_ms }));
      expect(s.risk_score).toBeGreaterThan(before.risk);
      expect(report.risk_score).toBe(s.risk_score);
      expect(report.business_narrative.summary).toContain(`for ~${Math.round(s.lock_duration_ms)} ms`);
      expect(await footprint()).toEqual(start);
    },
    SLOW,
  );
});
