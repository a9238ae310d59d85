import { nodeBody, nodeKind } from './ast';
import { blastRadius } from './blast-radius';
import { estimateLockDuration } from './lock-duration';
import type { ParsedStatement } from './parse-statements';
import { riskCategory, riskScore } from './risk-score';
import { RULES } from './rules/index';
import type { Rule, RuleContext } from './rules/rule';
import type { SchemaIndex } from './schema-index';
import { type StatementFacts, statementFacts } from './statement-facts';
import type { ImpactChain, NonTransactionalStatement, StatementReport } from './types';
import { rollbackStep } from '../rollback/inverse-statement';

/** Thresholds of the live-schema "large table" rule. */
export interface LintSettings {
  /** Rows above which a table counts as large (default 1,000,000). */
  largeTableRows?: number;
  /** Bytes above which a table counts as large (default 1 GiB). */
  largeTableBytes?: number;
  /** Rules to run (default: all of {@link RULES}). */
  rules?: readonly Rule[];
}

export interface StatementAnalysis {
  report: StatementReport;
  facts: StatementFacts;
  chains: ImpactChain[];
  rollbackNonTransactional: boolean;
}

/**
 * The sandbox-free part of the analysis for every statement: classification, locks, duration,
 * lint warnings, blast radius, risk and the rollback step. Pure: SQL plus a snapshot in, report out.
 */
export function analyzeStatements(parsed: readonly ParsedStatement[], schema: SchemaIndex, settings: LintSettings = {}): StatementAnalysis[] {
  const facts = parsed.map((p) => statementFacts(p, schema));
  const rules = settings.rules ?? RULES;
  const out: StatementAnalysis[] = [];
  const pairs = parsed.map((s) => ({ stmt: s, facts: facts[s.index]! }));
  let inTx = false;
  for (const p of parsed) {
    const f = facts[p.index]!;
    const duration = estimateLockDuration(f, schema.table(f.table));
    const ctx: RuleContext = {
      stmt: p,
      facts: f,
      schema,
      previous: pairs.slice(0, p.index),
      following: pairs.slice(p.index + 1),
      inTransaction: inTx,
      lockDurationMs: duration,
      largeTableRows: settings.largeTableRows ?? 1_000_000,
      largeTableBytes: settings.largeTableBytes ?? 2 ** 30,
    };
    const warnings = rules.flatMap((r) => r.check(ctx));
    if (nodeKind(p.stmt) === 'TransactionStmt') {
      const k = String(nodeBody(p.stmt).kind);
      if (k === 'TRANS_STMT_BEGIN' || k === 'TRANS_STMT_START') inTx = true;
      if (k === 'TRANS_STMT_COMMIT' || k === 'TRANS_STMT_ROLLBACK') inTx = false;
    }
    const { affected, chains } = blastRadius(f, schema, p.index);
    const cascade = affected.filter((a) => a.impact === 'cascade');
    const viewPenalty = warnings.some((w) => w.startsWith('[view-depends-on-column]')) ? 10 : 0;
    const score = riskScore({
      lock: f.lock_type,
      effect: f.effect,
      existingTable: !!schema.table(f.table),
      durationMs: duration,
      destructive: f.destructive,
      cascadeTables: cascade.length,
      cascadeDepth: Math.max(0, ...cascade.map((c) => (c.cascade_path?.length ?? 1) - 1)),
      indexComplexity: f.index_complexity,
      extra: viewPenalty,
    });
    const step = rollbackStep(p, f, schema);
    const { non_transactional: rollbackNonTransactional, ...rollback } = step;
    out.push({
      facts: f,
      chains,
      rollbackNonTransactional,
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
