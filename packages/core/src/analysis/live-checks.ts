import type pg from 'pg';
import { connectPg } from '../connections/connect-pg';
import { loadConnectionTarget } from '../connections/load-connection-target';
import type { KeyProvider } from '../crypto/key-provider';
import type { CoreDeps } from '../deps';
import { AppError } from '../errors/app-error';
import { type MigrationAnalysis, rescoreRisk } from './analyze-migration';
import { unverifiableReason } from './live-expression-gate';
import { statementRowsShape } from './lock-timing/live-features';
import { liveLockTiming, measuredScans } from './lock-timing/live-lock-timing';
import type { ParsedStatement } from './parse-statements';
import type { PreflightClient, PreflightLimits } from './preflight/preflight-session';
import { SCANNING_CHECKS } from './preflight/scanning-checks';
import { type PreflightReport, preflightValidations, runPreflight } from './preflight/run-preflight';
import type { StatementFacts } from './statement-facts';
import type { AnalysisReport, SandboxResult } from './types';

export interface LiveCheckOptions {
  /** Limits of the data preflight (sampling threshold, timeouts, budget). */
  preflight?: Partial<PreflightLimits>;
  /**
   * The sandbox again on an empty clone (no synthetic rows): used when the synthetic rows made a
   * statement fail whose data question the preflight answered on every live row.
   */
  sandboxWithoutRows?: () => Promise<SandboxResult>;
  /** Skip the calibrated lock timing and queue check (default: run them). */
  lockTiming?: boolean;
}

/** What the live checks found, besides the changes they made to the report. */
export interface LiveCheckResult {
  preflight: PreflightReport;
  probeMs: number | null;
}

/**
 * The questions only the target database can answer, asked read-only over `client` (a
 * connection to the target the caller opened and will close) and folded into `report`:
 *
 * - the data preflight: its findings join `sandbox_result.validation_results` (check names
 *   `preflight_*`); a statement that would fail on the live rows, or a check that could not
 *   finish, makes `sandbox_result.passed` false (so no approval token is issued) and, unless the
 *   sandbox failed on the schema or the SQL, `migration_error` names the first such finding;
 * - lock hold times carried to the target (speed probe + live catalog): `lock_duration_ms`
 *   becomes the calibrated figure and the statement's warnings say its range and basis
 *   (`[lock-timing]`) and which open sessions it would queue behind (`[lock-queue]`).
 */
export async function applyLiveChecks(analysis: MigrationAnalysis, client: PreflightClient, options: LiveCheckOptions = {}): Promise<LiveCheckResult> {
  const { parsed, report } = analysis;
  const facts = analysis.items.map((i) => i.facts);
  const preflight = await runPreflight({ parsed, facts, client, ...(options.preflight ? { limits: options.preflight } : {}) });
  if (preflight.passed && options.sandboxWithoutRows) await overruleSyntheticRows(report, preflight, options.sandboxWithoutRows);
  const sandbox = report.sandbox_result;
  sandbox.validation_results.push(...preflightValidations(preflight));
  if (!preflight.passed) {
    const first = preflight.findings.find((f) => f.status === 'failed') ?? preflight.findings.find((f) => f.status === 'incomplete')!;
    sandbox.passed = false;
    const why = `Preflight on the live data: statement ${first.statement_index} ${first.status === 'failed' ? 'would fail' : 'could not be verified'}: ${first.detail}`;
    // Where the synthetic rows also failed on their data, the live rows' finding (counts and
    // examples from production) is the reason to give; a schema error of the sandbox stays first.
    if (sandbox.migration_error === null || (first.status === 'failed' && sandboxDataError(sandbox.migration_error))) sandbox.migration_error = why;
    report.warnings.push(
      `Preflight: ${preflight.findings.filter((f) => f.status === 'failed').length} statement check(s) would fail on the live data, ${preflight.findings.filter((f) => f.status === 'incomplete').length} could not finish; see sandbox_result.validation_results.`,
    );
  }
  const unverified = preflight.findings.filter((f) => f.unverified);
  if (unverified.length)
    report.warnings.push(
      `Preflight: ${unverified.length} check(s) not verified on the live data (statement${unverified.length > 1 ? 's' : ''} ${[...new Set(unverified.map((f) => f.statement_index))].join(', ')}): what they would evaluate calls functions dbops may not run there; see sandbox_result.validation_results.`,
    );
  let probeMs: number | null = null;
  if (options.lockTiming !== false) {
    const unplannable = await unplannableStatements(client, analysis);
    const timing = await liveLockTiming(client, parsed, facts, { unplannable, measuredScans: measuredScans(preflight.findings, SCANNING_CHECKS) }).catch(
      () => null,
    );
    probeMs = timing?.probeMs ?? null;
    let retimed = false;
    for (const t of timing?.statements ?? []) {
      const s = report.statements[t.statementIndex];
      if (!s) continue;
      if (t.estimate) {
        s.lock_duration_ms = Math.round(t.estimate.ms * 10) / 10;
        retimed = true;
      }
      for (const w of t.warnings) {
        s.warnings.push(w);
        report.warnings.push(`Statement ${s.index}: ${w}`);
      }
    }
    // The risk score weighs how long the lock is held: score again with the target's figure.
    if (retimed) rescoreRisk(analysis);
  }
  return { preflight, probeMs };
}

/**
 * Statements whose rows may not be planned or sampled on the target (a DML statement's WHERE, an
 * INSERT's query, a partial index's predicate, a btree build's keys):
 * planning folds STABLE and IMMUTABLE calls, so the predicate passes the live-expression gate first.
 * A sub-query may pass: such a shape is only planned, never counted (live-features.ts).
 */
async function unplannableStatements(client: PreflightClient, analysis: MigrationAnalysis): Promise<Set<number>> {
  const out = new Set<number>();
  for (const stmt of analysis.parsed) {
    const f = analysis.items[stmt.index]?.facts;
    if (f && (await unplannableStatement(client, stmt, f))) out.add(stmt.index);
  }
  return out;
}

/**
 * Whether what the lock timing would plan or sample for `stmt` on the target (its rows' query,
 * the values a rewrite computes) did not pass the live-expression gate: it is then priced
 * without touching the target with it (lock-timing's `unplannable`).
 */
export async function unplannableStatement(client: PreflightClient, stmt: ParsedStatement, facts: StatementFacts): Promise<boolean> {
  const shape = statementRowsShape(stmt, facts);
  return !!shape && !!(await unverifiableReason(client, shape, undefined, { subqueries: true }).catch(() => 'unknown'));
}

/** PostgreSQL's messages for errors caused by the rows, not by the schema or the SQL. */
const DATA_ERROR =
  /violates (foreign key|check|not-null|unique|exclusion) constraint|is violated by some row|would be violated by some row|contains null values|could not create unique index|invalid input syntax for type|out of range|value too long for type|numeric field overflow|division by zero/;

/** The statement at which the sandbox failed on its (synthetic) rows, not on the schema or the SQL; null for any other failure. */
function sandboxDataError(error: string | null): { index: number; message: string } | null {
  const m = /^Statement (\d+) \([^)]*\) failed: (.*)$/s.exec(error ?? '');
  return m && DATA_ERROR.test(m[2]!) ? { index: Number(m[1]), message: m[2]! } : null;
}

/**
 * The sandbox's rows are invented, so a data error there (a CHECK or foreign key its synthetic
 * values break) says nothing about production. When the sandbox stopped on such an error at a
 * statement whose data question the preflight answered on every live row (passed, not
 * sampled), the data question is settled by the preflight, and the schema questions are asked
 * again by a sandbox run on an empty clone; its result replaces the synthetic one, with a
 * `synthetic_rows_overruled` entry saying so.
 */
async function overruleSyntheticRows(report: AnalysisReport, preflight: PreflightReport, sandboxWithoutRows: () => Promise<SandboxResult>): Promise<void> {
  const first = report.sandbox_result;
  const dataError = sandboxDataError(first.migration_error);
  if (first.passed || !dataError) return;
  const { index, message } = dataError;
  const answered = preflight.findings.filter((f) => f.statement_index === index);
  if (!answered.length || answered.some((f) => f.status !== 'passed' || f.sampled)) return;
  const empty = await sandboxWithoutRows();
  empty.validation_results.unshift({
    check: 'synthetic_rows_overruled',
    passed: true,
    detail: `With synthetic rows, statement ${index} failed (${message}); the preflight checked that statement on every live row and found no violation, so the sandbox was run again on an empty clone for the schema questions`,
  });
  empty.duration_ms += first.duration_ms;
  report.sandbox_result = empty;
  report.warnings = report.warnings.filter((w) => w !== `Sandbox: ${first.migration_error}`);
}

/**
 * {@link applyLiveChecks} on a registered connection: opens one connection to the target (as
 * the service connects for introspection), runs the checks and closes it. When the target
 * cannot be reached the preflight cannot vouch for the data, so that is recorded as an
 * unfinished check (`passed: false`, no token) rather than skipped.
 */
export async function applyLiveChecksOnConnection(
  deps: CoreDeps & { keyProvider: KeyProvider },
  input: { userId: string; connectionId: string; analysis: MigrationAnalysis },
  options: LiveCheckOptions = {},
): Promise<void> {
  let client: pg.Client | undefined;
  try {
    const target = await loadConnectionTarget(deps, input.userId, input.connectionId);
    client = (await connectPg(target, { statementTimeoutMs: 60_000, applicationName: 'dbops preflight' })).client;
  } catch (error) {
    const sandbox = input.analysis.report.sandbox_result;
    const why = error instanceof AppError ? error.message : 'the database could not be reached';
    sandbox.validation_results.push({
      check: 'preflight',
      passed: false,
      detail: `Preflight could not finish: ${why}; the migration was not checked against the live data`,
    });
    sandbox.passed = false;
    sandbox.migration_error ??= `Preflight on the live data could not run: ${why}`;
    return;
  }
  try {
    await applyLiveChecks(input.analysis, client, options);
  } finally {
    await client.end().catch(() => undefined);
  }
}
