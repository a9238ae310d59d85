import type pg from 'pg';
import { connectPg } from '../connections/connect-pg';
import { loadConnectionTarget } from '../connections/load-connection-target';
import type { KeyProvider } from '../crypto/key-provider';
import type { CoreDeps } from '../deps';
import { AppError } from '../errors/app-error';
import type { SchemaSnapshot } from '../introspection/schema-snapshot';
import { analyzeStatements } from './analyze-statements';
import { liveLockTiming } from './lock-timing/live-lock-timing';
import { parseStatements } from './parse-statements';
import type { PreflightClient, PreflightLimits } from './preflight/preflight-session';
import { type PreflightReport, preflightValidations, runPreflight } from './preflight/run-preflight';
import { buildSchemaIndex } from './schema-index';
import type { AnalysisReport } from './types';

export interface LiveCheckOptions {
  /** Limits of the data preflight (sampling threshold, timeouts, budget). */
  preflight?: Partial<PreflightLimits>;
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
 *   finish, makes `sandbox_result.passed` false (so no approval token is issued) and, when the
 *   sandbox itself found nothing, `migration_error` names the first such finding;
 * - lock hold times carried to the target (speed probe + live catalog): `lock_duration_ms`
 *   becomes the calibrated figure and the statement's warnings say its range and basis
 *   (`[lock-timing]`) and which open sessions it would queue behind (`[lock-queue]`).
 */
export async function applyLiveChecks(sql: string, snapshot: SchemaSnapshot, report: AnalysisReport, client: PreflightClient, options: LiveCheckOptions = {}): Promise<LiveCheckResult> {
  const parsed = await parseStatements(sql);
  const facts = analyzeStatements(parsed, buildSchemaIndex(snapshot)).map((i) => i.facts);
  const preflight = await runPreflight({ parsed, facts, client, ...(options.preflight ? { limits: options.preflight } : {}) });
  const sandbox = report.sandbox_result;
  sandbox.validation_results.push(...preflightValidations(preflight));
  if (!preflight.passed) {
    const first = preflight.findings.find((f) => f.status === 'failed') ?? preflight.findings.find((f) => f.status === 'incomplete')!;
    sandbox.passed = false;
    const why = `Preflight on the live data: statement ${first.statement_index} ${first.status === 'failed' ? 'would fail' : 'could not be verified'}: ${first.detail}`;
    sandbox.migration_error ??= why;
    report.warnings.push(`Preflight: ${preflight.findings.filter((f) => f.status === 'failed').length} statement check(s) would fail on the live data, ${preflight.findings.filter((f) => f.status === 'incomplete').length} could not finish; see sandbox_result.validation_results.`);
  }
  let probeMs: number | null = null;
  if (options.lockTiming !== false) {
    const timing = await liveLockTiming(client, parsed, facts).catch(() => null);
    probeMs = timing?.probeMs ?? null;
    for (const t of timing?.statements ?? []) {
      const s = report.statements[t.statementIndex];
      if (!s) continue;
      if (t.estimate) s.lock_duration_ms = Math.round(t.estimate.ms * 10) / 10;
      for (const w of t.warnings) {
        s.warnings.push(w);
        report.warnings.push(`Statement ${s.index}: ${w}`);
      }
    }
  }
  return { preflight, probeMs };
}

/**
 * {@link applyLiveChecks} on a registered connection: opens one connection to the target (as
 * the service connects for introspection), runs the checks and closes it. When the target
 * cannot be reached the preflight cannot vouch for the data, so that is recorded as an
 * unfinished check (`passed: false`, no token) rather than skipped.
 */
export async function applyLiveChecksOnConnection(deps: CoreDeps & { keyProvider: KeyProvider }, input: { userId: string; connectionId: string; sql: string; snapshot: SchemaSnapshot; report: AnalysisReport }, options: LiveCheckOptions = {}): Promise<void> {
  let client: pg.Client | undefined;
  try {
    const target = await loadConnectionTarget(deps, input.userId, input.connectionId);
    client = (await connectPg(target, { statementTimeoutMs: 60_000, applicationName: 'dbops preflight' })).client;
  } catch (error) {
    const sandbox = input.report.sandbox_result;
    const why = error instanceof AppError ? error.message : 'the database could not be reached';
    sandbox.validation_results.push({ check: 'preflight', passed: false, detail: `Preflight could not finish: ${why}; the migration was not checked against the live data` });
    sandbox.passed = false;
    sandbox.migration_error ??= `Preflight on the live data could not run: ${why}`;
    return;
  }
  try {
    await applyLiveChecks(input.sql, input.snapshot, input.report, client, options);
  } finally {
    await client.end().catch(() => undefined);
  }
}
