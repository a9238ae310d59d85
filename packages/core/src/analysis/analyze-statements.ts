import { nodeBody, nodeKind } from './ast';
import { blastRadius } from './blast-radius';
import { estimateLockDuration } from './lock-duration';
import type { ParsedStatement } from './parse-statements';
import { riskCategory, type RiskInputs, riskScore } from './risk-score';
import { resolveNames } from './resolve-names';
import { RULES } from './rules/index';
import { findingText, type Rule, type RuleContext } from './rules/rule';
import { statementLocation } from './statement-location';
import type { SchemaIndex } from './schema-index';
import { type StatementFacts, statementFacts } from './statement-facts';
import type { AffectedTable, Finding, ImpactChain, NonTransactionalStatement, RollbackStep, StatementReport } from './types';
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
  /** Offline lint: tables the migration did not create count as existing (see {@link RuleContext.assumeExisting}). */
  assumeExisting?: boolean;
  /** The migration runs inside a transaction the tool opens (squawk's `assume_in_transaction`). */
  assumeInTransaction?: boolean;
  /**
   * Lint only: skip blast radius, risk score and rollback step (each report then has empty
   * `affected_tables`, risk 0 and an empty irreversible rollback). `dbops lint` needs findings alone.
   */
  findingsOnly?: boolean;
}

export interface StatementAnalysis {
  report: StatementReport;
  /** The statement's lint findings; `report.warnings` are their texts. */
  findings: Finding[];
  facts: StatementFacts;
  chains: ImpactChain[];
  rollbackNonTransactional: boolean;
  /** What the risk score was computed from (null in findings-only lint): live checks score again with a live lock time. */
  risk: RiskInputs | null;
}

type Pair = RuleContext['previous'][number];

/** The context rules see; previous/following are copied only when a rule reads them (most never do). */
class StatementRuleContext implements RuleContext {
  // Declared, not initialised as class fields: the constructor sets each once (cheaper per statement).
  declare readonly stmt: ParsedStatement;
  declare readonly facts: StatementFacts;
  declare readonly schema: SchemaIndex;
  declare readonly inTransaction: boolean;
  declare readonly lockDurationMs: number;
  declare readonly largeTableRows: number;
  declare readonly largeTableBytes: number;
  declare readonly assumeExisting: boolean;
  declare private readonly pairs: readonly Pair[];
  declare private previousCache: readonly Pair[] | undefined;
  declare private followingCache: readonly Pair[] | undefined;

  constructor(
    stmt: ParsedStatement,
    facts: StatementFacts,
    schema: SchemaIndex,
    pairs: readonly Pair[],
    inTransaction: boolean,
    lockDurationMs: number,
    largeTableRows: number,
    largeTableBytes: number,
    assumeExisting: boolean,
  ) {
    this.stmt = stmt;
    this.facts = facts;
    this.schema = schema;
    this.pairs = pairs;
    this.inTransaction = inTransaction;
    this.lockDurationMs = lockDurationMs;
    this.largeTableRows = largeTableRows;
    this.largeTableBytes = largeTableBytes;
    this.assumeExisting = assumeExisting;
    this.previousCache = undefined;
    this.followingCache = undefined;
  }

  get previous(): readonly Pair[] {
    return (this.previousCache ??= this.pairs.slice(0, this.stmt.index));
  }

  get following(): readonly Pair[] {
    return (this.followingCache ??= this.pairs.slice(this.stmt.index + 1));
  }
}

const rulesByKind = new WeakMap<readonly Rule[], Map<string, Rule[]>>();

/** The rule list's lists by statement kind (cached per rule list, fetched once per migration). */
function rulesByKindOf(rules: readonly Rule[]): Map<string, Rule[]> {
  let byKind = rulesByKind.get(rules);
  if (!byKind) rulesByKind.set(rules, (byKind = new Map()));
  return byKind;
}

/** The rules that can report on a statement kind, in their original order. */
function rulesFor(rules: readonly Rule[], byKind: Map<string, Rule[]>, kind: string): Rule[] {
  let list = byKind.get(kind);
  if (!list) byKind.set(kind, (list = rules.filter((r) => !r.kinds || r.kinds.includes(kind))));
  return list;
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
  const rules = settings.rules ?? RULES;
  const byKind = rulesByKindOf(rules);
  const largeTableRows = settings.largeTableRows ?? 1_000_000;
  const largeTableBytes = settings.largeTableBytes ?? 2 ** 30;
  const out: StatementAnalysis[] = [];
  const pairs: Pair[] = [];
  for (let i = 0; i < parsed.length; i++) pairs.push({ stmt: parsed[i]!, facts: facts[parsed[i]!.index]! });
  const assumeExisting = settings.assumeExisting ?? false;
  let inTx = settings.assumeInTransaction ?? false;
  const undoContext = settings.findingsOnly ? undefined : rollbackContext(parsed, facts, schema);
  for (const p of parsed) {
    const f = facts[p.index]!;
    const kind = nodeKind(p.stmt);
    const table = schema.table(f.table);
    const duration = estimateLockDuration(f, table, p, f.fk_targets[0] ? schema.table(f.fk_targets[0]) : undefined);
    const ctx = new StatementRuleContext(p, f, schema, pairs, inTx, duration, largeTableRows, largeTableBytes, assumeExisting);
    const warnings: string[] = [];
    const findings: Finding[] = [];
    let location: Finding['location'] | undefined;
    const applicable = rulesFor(rules, byKind, kind);
    // Indexed loops: this runs for every rule of every statement, mostly before the JIT warms up.
    for (let i = 0; i < applicable.length; i++) {
      const rule = applicable[i]!;
      const found = rule.check(ctx);
      for (let j = 0; j < found.length; j++) {
        const f = found[j]!;
        location ??= statementLocation(p);
        findings.push({ rule: f.rule, severity: rule.severity, statement_index: p.index, message: f.message, safer: f.safer, location });
        warnings.push(findingText(f));
      }
    }
    if (kind === 'TransactionStmt') {
      const k = String(nodeBody(p.stmt).kind);
      if (k === 'TRANS_STMT_BEGIN' || k === 'TRANS_STMT_START') inTx = true;
      if (k === 'TRANS_STMT_COMMIT' || k === 'TRANS_STMT_ROLLBACK') inTx = settings.assumeInTransaction ?? false;
    }
    // Findings-only lint (the CLI) skips blast radius, risk and rollback: the report keeps their empty values.
    let affected: AffectedTable[] = [];
    let chains: ImpactChain[] = [];
    let risk: RiskInputs | null = null;
    let score = 0;
    let rollback: RollbackStep = { statement_index: p.index, sql: '', reversible: false, warning: null };
    let rollbackNonTransactional = false;
    if (!settings.findingsOnly) {
      ({ affected, chains } = blastRadius(f, schema, p.index));
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
      risk = {
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
      score = riskScore(risk);
      const step = rollbackStep(p, f, schema, undoContext);
      rollback = { statement_index: step.statement_index, sql: step.sql, reversible: step.reversible, warning: step.warning };
      rollbackNonTransactional = step.non_transactional;
    }
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
