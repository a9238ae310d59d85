import type { RankedDocumentChunk } from '../context/document-context';
import { assertStatementLimit, MAX_STATEMENTS } from '../pg/statement-limit';
import type { SchemaSnapshot } from '../introspection/schema-snapshot';
import { rollbackPlan } from './rollback/rollback-plan';
import { applyRollbackProof } from './rollback/rollback-verdict';
import { runSandbox, type SandboxOptions } from './sandbox/run-sandbox';
import type { SandboxPhases, SandboxRunResult } from './sandbox/sandbox-run';
import { SHARED_ROLE_CHECK } from './sandbox/server-sandbox';
import { analyzeStatements, type LintSettings, nonTransactional, type StatementAnalysis } from './analyze-statements';
import { businessNarrative } from './business-narrative';
import { type ParsedStatement, parseStatements, parseStatementsSync, parserReady } from './parse-statements';
import { reportFindings } from './report-findings';
import { riskCategory, riskScore } from './risk-score';
import { buildSchemaIndex } from './schema-index';
import type { StatementFacts } from './statement-facts';
import type { AffectedTable, AnalysisReport, ImpactChain, SandboxResult, StatementReport } from './types';

export interface AnalyzeOptions extends LintSettings {
  connectionId: string;
  /** Run the sandbox (default true); `false` gives a `sandbox_result` with passed false and a note. */
  sandbox?: boolean | SandboxOptions;
  /** Prove the rollback in the sandbox (default true): `rollback_plan.verified` is null without it. */
  rollbackProof?: boolean;
  /** Document chunks relevant to the migration (default: none, so the narrative is schema-only). */
  findDocuments?: (input: { query: string; tableNames: string[] }) => Promise<RankedDocumentChunk[]>;
}

/** A fresh result each time: the live checks append to validation_results, which must not leak into the next report. */
const skippedSandbox = (): SandboxResult => ({
  passed: false,
  migration_applied: false,
  migration_error: 'sandbox not run',
  tables_created: 0,
  rows_inserted: 0,
  validation_results: [],
  duration_ms: 0,
});

/** `sandbox_result` as the report gives it: the rollback's round trip goes into `rollback_plan`, the phase timings to the caller. */
function withoutProof(r: SandboxRunResult): SandboxResult {
  if (!('rollback_proof' in r) && !('phases' in r)) return r;
  const { rollback_proof: _, phases: __, ...rest } = r;
  return rest;
}

/** Whole-migration affected tables: each table once, `direct` winning over `cascade`. */
function mergeAffected(lists: readonly AffectedTable[][]): AffectedTable[] {
  const out = new Map<string, AffectedTable>();
  for (const list of lists) {
    for (const a of list) {
      const cur = out.get(a.table);
      if (!cur || (cur.impact === 'cascade' && a.impact === 'direct')) out.set(a.table, a);
    }
  }
  return [...out.values()];
}

function impactChains(items: readonly StatementAnalysis[]): ImpactChain[] {
  const out: ImpactChain[] = [];
  for (const i of items) for (const c of i.chains) out.push(c);
  return out;
}

/**
 * A report with what it was made from: the parsed statements (names resolved) and their facts,
 * so later steps on the same migration (the live checks, a second sandbox run) neither parse nor
 * analyze it again.
 */
export interface MigrationAnalysis {
  report: AnalysisReport;
  parsed: readonly ParsedStatement[];
  items: readonly StatementAnalysis[];
  /** Document chunks the narrative cites (kept to rebuild it when live figures change the scores). */
  chunks: readonly RankedDocumentChunk[];
  /** The sandbox alone, again, on the same statements and facts with other options (e.g. no rows). */
  rerunSandbox(options: SandboxOptions): Promise<SandboxResult>;
  /**
   * {@link rerunSandbox} for a run that replaces the report's sandbox result (the live checks'
   * empty clone): when the first run could not prove the rollback (its migration failed on the
   * synthetic rows), this run proves it, folds the verdict into `rollback_plan` and the
   * statements, and carries the `rollback_round_trip` entry.
   */
  rerunSandboxProvingRollback(options: SandboxOptions): Promise<SandboxResult>;
  /** Where the sandbox run's time went (`sandbox-run.ts`), for the debug log and the benches; empty without a sandbox. */
  sandboxPhases: SandboxPhases;
}

const IRREVERSIBLE_WARNING = 'The rollback plan has irreversible steps: data removed or changed by this migration cannot be restored automatically.';

/**
 * The migration analysis of spec section 2 from SQL plus a schema snapshot. No access to the
 * user's database: the sandbox is an in-process PGlite or, when `sandbox.server` is given, a
 * dedicated throwaway PostgreSQL server. `approval_token` is left null here; the caller issues
 * it when `sandbox_result.passed` (it needs the signing key).
 */
export async function analyzeMigration(sql: string, snapshot: SchemaSnapshot, options: AnalyzeOptions): Promise<AnalysisReport> {
  return (await analyzeMigrationDetailed(sql, snapshot, options)).report;
}

/**
 * Statement and migration risk scored again from each statement's current `lock_duration_ms`
 * (after the live checks replaced the snapshot's figure with the target's), and the narrative
 * that quotes them rebuilt.
 */
export function rescoreRisk(analysis: MigrationAnalysis): void {
  const { report, items } = analysis;
  for (const s of report.statements) {
    const inputs = items[s.index]?.risk;
    if (!inputs) continue;
    s.risk_score = riskScore({ ...inputs, durationMs: s.lock_duration_ms });
    s.risk_category = riskCategory(s.risk_score);
  }
  report.risk_score = Math.max(0, ...report.statements.map((s) => s.risk_score));
  report.risk_category = riskCategory(report.risk_score);
  report.business_narrative = businessNarrative(report.statements, report.affected_tables, report.risk_score, report.risk_category, analysis.chunks);
}

/** {@link analyzeMigration}, keeping the parsed statements and facts for later steps. */
export async function analyzeMigrationDetailed(sql: string, snapshot: SchemaSnapshot, options: AnalyzeOptions): Promise<MigrationAnalysis> {
  // Once the parser is loaded (every analysis but the first), parse without the two awaits.
  const parsed = parserReady() ? parseStatementsSync(sql) : await parseStatements(sql);
  assertStatementLimit(parsed.length, MAX_STATEMENTS.migration);
  const schema = buildSchemaIndex(snapshot);
  const items = analyzeStatements(parsed, schema, options);
  const statements: StatementReport[] = [];
  const perStatementAffected: AffectedTable[][] = [];
  const facts: StatementFacts[] = [];
  let score = 0;
  for (let i = 0; i < items.length; i++) {
    const s = items[i]!.report;
    statements.push(s);
    perStatementAffected.push(s.affected_tables);
    facts.push(items[i]!.facts);
    if (s.risk_score > score) score = s.risk_score;
  }
  const affected = mergeAffected(perStatementAffected);
  const category = riskCategory(score);
  const plan = rollbackPlan(
    items.map((i) => {
      const r = i.report.rollback;
      return { statement_index: r.statement_index, sql: r.sql, reversible: r.reversible, warning: r.warning, non_transactional: i.rollbackNonTransactional };
    }),
  );

  // Bound rather than a closure: built for every analysis, used only by the sandbox and live checks.
  const runOnce: (opts: SandboxOptions) => Promise<SandboxRunResult> = runSandbox.bind(null, snapshot, parsed, facts, perStatementAffected);
  // A second run (the live checks' empty clone) answers the migration's questions only.
  const rerunSandbox = async (opts: SandboxOptions): Promise<SandboxResult> => withoutProof(await runOnce(opts));
  const sandboxOpts = options.sandbox ?? true;
  let sandbox: SandboxRunResult = skippedSandbox();
  let chunks: RankedDocumentChunk[] = [];
  // Without sandbox and documents there is nothing to wait for (the common lint-only call).
  if (sandboxOpts !== false || options.findDocuments) {
    // The sandbox also proves the rollback: the combined script on the migrated clone.
    const sandboxPromise =
      sandboxOpts === false
        ? Promise.resolve(sandbox)
        : runOnce({ ...(sandboxOpts === true ? {} : sandboxOpts), ...(options.rollbackProof === false ? {} : { rollback: { script: plan.combined_script } }) });
    const tableNames = affected.map((a) => a.table.split('.').pop()!);
    const docsPromise = options.findDocuments
      ? // Documents only enrich the narrative: a failing lookup must not fail the analysis.
        options
          .findDocuments({
            query: `${statements.map((s) => s.statement_type.toLowerCase().replace(/_/g, ' ')).join(', ')} on ${tableNames.join(', ')}`,
            tableNames,
          })
          .catch(() => [])
      : Promise.resolve([]);
    [sandbox, chunks] = await Promise.all([sandboxPromise, docsPromise]);
  }

  const proof = sandbox.rollback_proof;
  const sandboxPhases = sandbox.phases ?? [];
  sandbox = withoutProof(sandbox);
  const verdictStatements = items.map((i, k) => ({ index: i.report.index, sql: parsed[k]!.sql, facts: i.facts, affected: i.report.affected_tables }));
  const notApplied = 'the migration did not apply in the sandbox, so its rollback could not be tried';
  const roundTrip = applyRollbackProof(
    plan,
    proof,
    verdictStatements,
    sandboxOpts === false ? 'the sandbox did not run' : options.rollbackProof === false ? 'the rollback proof was turned off' : notApplied,
  );
  if (roundTrip) sandbox.validation_results.push(roundTrip);
  // Each statement's step is the plan's (a step the round trip caught out reads the same in both).
  const stepsToStatements = (): void => {
    for (const s of statements) s.rollback = plan.steps.find((x) => x.statement_index === s.index) ?? s.rollback;
  };
  stepsToStatements();
  const { findings, warnings } = reportFindings(items);
  if (plan.has_irreversible) warnings.push(IRREVERSIBLE_WARNING);
  if (sandbox.migration_error && sandboxOpts !== false) warnings.push(`Sandbox: ${sandbox.migration_error}`);
  // A sandbox server whose role cannot make a role per run passes the run, and the report says what that leaves shared.
  const shared = sandbox.validation_results.find((v) => v.check === SHARED_ROLE_CHECK);
  if (shared) warnings.push(`Sandbox: ${shared.detail}`);

  const narrative = businessNarrative(statements, affected, score, category, chunks);
  const report: AnalysisReport = {
    connection_id: options.connectionId,
    total_statements: statements.length,
    risk_score: score,
    risk_category: category,
    statements,
    affected_tables: affected,
    rollback_plan: plan,
    warnings,
    findings,
    business_narrative: narrative,
    impact_chains: impactChains(items),
    sandbox_result: sandbox,
    approval_token: null,
    non_transactional_statements: nonTransactional(items),
    context_used: !narrative.schema_only,
    safe_plan: null,
    safe_plan_reason: null,
  };
  const rerunSandboxProvingRollback = async (opts: SandboxOptions): Promise<SandboxResult> => {
    if (plan.verified !== null || sandboxOpts === false || options.rollbackProof === false) return rerunSandbox(opts);
    const run = await runOnce({ ...opts, rollback: { script: plan.combined_script } });
    const again = applyRollbackProof(plan, run.rollback_proof, verdictStatements, notApplied);
    const result = withoutProof(run);
    if (again) result.validation_results.push(again);
    stepsToStatements();
    if (plan.has_irreversible && !report.warnings.includes(IRREVERSIBLE_WARNING)) report.warnings.push(IRREVERSIBLE_WARNING);
    return result;
  };
  return { report, parsed, items, chunks, rerunSandbox, rerunSandboxProvingRollback, sandboxPhases };
}
