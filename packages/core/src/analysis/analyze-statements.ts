import { blastRadius } from './blast-radius';
import { estimateLockDuration } from './lock-duration';
import type { ParsedStatement } from './parse-statements';
import { riskCategory, type RiskInputs, riskScore } from './risk-score';
import { resolveNames } from './resolve-names';
import { runRules } from './rule-pass';
import { RULES } from './rules/index';
import type { Rule } from './rules/rule';
import type { SchemaIndex } from './schema-index';
import { type StatementFacts, statementFacts } from './statement-facts';
import type { Finding, ImpactChain, NonTransactionalStatement, RollbackStep, StatementReport } from './types';
import { rollbackStep } from './rollback/inverse-statement';
import { rollbackContext } from './rollback/rollback-context';

/** Thresholds of the live-schema "large table" rule. */
export interface LintSettings {
  /** Rows above which a table counts as large (default 1,000,000). */
  largeTableRows?: number;
  /** Bytes above which a table counts as large (default 1 GiB). */
  largeTableBytes?: number;
  /** Rules to run (default: all of {@link RULES}). */
  rules?: readonly Rule[];
  /** Offline lint: tables the migration did not create count as existing (see `RuleContext.assumeExisting`). */
  assumeExisting?: boolean;
  /** The migration runs inside a transaction the tool opens (squawk's `assume_in_transaction`). */
  assumeInTransaction?: boolean;
}

export interface StatementAnalysis {
  report: StatementReport;
  /** The statement's lint findings; `report.warnings` are their texts. */
  findings: Finding[];
  facts: StatementFacts;
  chains: ImpactChain[];
  rollbackNonTransactional: boolean;
  /** What the risk score was computed from: live checks score again with a live lock time. */
  risk: RiskInputs;
}

/**
 * The sandbox-free part of the analysis for every statement: classification, locks, duration,
 * lint warnings, blast radius, risk and the rollback step. SQL plus a snapshot in, report out;
 * the parse trees get their unqualified names qualified under the snapshot's search path first
 * (see {@link resolveNames}), so the sandbox's validations read the same names.
 */
export function analyzeStatements(parsed: readonly ParsedStatement[], schema: SchemaIndex, settings: LintSettings = {}): StatementAnalysis[] {
  resolveNames(parsed, schema);
  // Arrays built by push stay packed (map() can yield holey ones): the optimised loop below then
  // sees one array shape and is not thrown away and recompiled mid-migration.
  const facts: StatementFacts[] = [];
  for (let i = 0; i < parsed.length; i++) facts.push(statementFacts(parsed[i]!, schema));
  const durations: number[] = [];
  for (const p of parsed) {
    const f = facts[p.index]!;
    durations.push(estimateLockDuration(f, schema.table(f.table), p, f.fk_targets[0] ? schema.table(f.fk_targets[0]) : undefined));
  }
  const undoContext = rollbackContext(parsed, facts, schema);
  const ruleFindings = runRules(parsed, facts, schema, {
    rules: settings.rules ?? RULES,
    assumeExisting: settings.assumeExisting ?? false,
    assumeInTransaction: settings.assumeInTransaction ?? false,
    largeTableRows: settings.largeTableRows,
    largeTableBytes: settings.largeTableBytes,
    lockDurations: durations,
  });
  const out: StatementAnalysis[] = [];
  for (const p of parsed) {
    const f = facts[p.index]!;
    const table = schema.table(f.table);
    const duration = durations[p.index]!;
    const { findings, warnings } = ruleFindings[p.index]!;
    const { affected, chains } = blastRadius(f, schema, p.index);
    let cascadeTables = 0;
    let cascadeDepth = 0;
    for (let i = 0; i < affected.length; i++) {
      const a = affected[i]!;
      if (a.impact !== 'cascade') continue;
      cascadeTables++;
      cascadeDepth = Math.max(cascadeDepth, (a.cascade_path?.length ?? 1) - 1);
    }
    let viewPenalty = 0;
    for (let i = 0; i < findings.length; i++) if (findings[i]!.rule === 'view-depends-on-column') viewPenalty = 10;
    const risk: RiskInputs = {
      lock: f.lock_type,
      effect: f.effect,
      existingTable: !!table,
      durationMs: duration,
      destructive: f.destructive,
      cascadeTables,
      cascadeDepth,
      indexComplexity: f.index_complexity,
      extra: viewPenalty,
    };
    const score = riskScore(risk);
    const step = rollbackStep(p, f, schema, undoContext);
    const rollback: RollbackStep = { statement_index: step.statement_index, sql: step.sql, reversible: step.reversible, warning: step.warning };
    const rollbackNonTransactional = step.non_transactional;
    out.push({
      findings,
      facts: f,
      chains,
      rollbackNonTransactional,
      risk,
      report: {
        index: p.index,
        sql: p.sql,
        statement_type: f.statement_type,
        table: f.table,
        lock_type: f.lock_type,
        lock_duration_ms: duration,
        risk_score: score,
        risk_category: riskCategory(score),
        affected_tables: affected,
        rollback,
        warnings,
      },
    });
  }
  return out;
}

/** Statements that cannot run inside a transaction block. */
export const nonTransactional = (items: readonly StatementAnalysis[]): NonTransactionalStatement[] =>
  items
    .filter((i) => i.facts.non_transactional)
    .map((i) => ({ statement_index: i.report.index, statement_type: i.report.statement_type, sql: i.report.sql, reason: i.facts.non_transactional! }));
