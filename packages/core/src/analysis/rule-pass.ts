import { nodeBody, nodeKind } from './ast';
import type { ParsedStatement } from './parse-statements';
import { findingText, type Rule, type RuleContext } from './rules/rule';
import type { SchemaIndex } from './schema-index';
import type { StatementFacts } from './statement-facts';
import { statementLocation } from './statement-location';
import type { Finding } from './types';

// The rules alone, apart from the rest of a statement's analysis (blast radius, risk, rollback):
// offline lint (`dbops lint`) imports this and not the rollback's deparser or the lock-time
// model, which it would otherwise load and compile on every run for nothing.

/** What the rules are run with; see `LintSettings` in analyze-statements.ts for each setting. */
export interface RulePassSettings {
  rules: readonly Rule[];
  assumeExisting: boolean;
  assumeInTransaction: boolean;
  /** Default 1,000,000. */
  largeTableRows?: number;
  /** Default 1 GiB. */
  largeTableBytes?: number;
  /**
   * Each statement's estimated lock time, by index. Offline lint gives none (0 ms): only live
   * rules read it (lock-impact), and offline lint leaves those out.
   */
  lockDurations?: readonly number[];
  /**
   * Write each finding's warning text (`warnings`, the spec's strings in the service's report).
   * Offline lint prints none of them and says false: `warnings` then stays empty. Default true.
   */
  warningTexts?: boolean;
}

/** One statement's findings and their texts (the spec's `warnings`), in rule order. */
export interface StatementFindings {
  findings: Finding[];
  warnings: string[];
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
  declare readonly statements: readonly Pair[];
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
    this.statements = pairs;
    this.inTransaction = inTransaction;
    this.lockDurationMs = lockDurationMs;
    this.largeTableRows = largeTableRows;
    this.largeTableBytes = largeTableBytes;
    this.assumeExisting = assumeExisting;
    this.previousCache = undefined;
    this.followingCache = undefined;
  }

  get previous(): readonly Pair[] {
    return (this.previousCache ??= this.statements.slice(0, this.stmt.index));
  }

  get following(): readonly Pair[] {
    return (this.followingCache ??= this.statements.slice(this.stmt.index + 1));
  }
}

/**
 * A rule and its check, in one object shape for every rule: the rules' own objects differ in
 * shape (`kinds`, `live`), so loading `rule.check` from them at the one call site below is a
 * megamorphic lookup, about 80,000 of them in a run over lemmy's migrations.
 */
interface Applicable {
  readonly rule: Rule;
  readonly check: Rule['check'];
}

const rulesByKind = new WeakMap<readonly Rule[], Map<string, Applicable[]>>();

/** The rule list's lists by statement kind (cached per rule list, fetched once per migration). */
function rulesByKindOf(rules: readonly Rule[]): Map<string, Applicable[]> {
  let byKind = rulesByKind.get(rules);
  if (!byKind) rulesByKind.set(rules, (byKind = new Map()));
  return byKind;
}

/** The rules that can report on a statement kind, in their original order. */
function rulesFor(rules: readonly Rule[], byKind: Map<string, Applicable[]>, kind: string): Applicable[] {
  let list = byKind.get(kind);
  if (!list) {
    list = [];
    for (const r of rules) if (!r.kinds || r.kinds.includes(kind)) list.push({ rule: r, check: r.check });
    byKind.set(kind, list);
  }
  return list;
}

/**
 * Runs the rules over every statement of a migration (names already resolved, facts by index),
 * following the migration's own BEGIN/COMMIT for `inTransaction`.
 */
export function runRules(
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  schema: SchemaIndex,
  settings: RulePassSettings,
): StatementFindings[] {
  const { rules, assumeExisting, lockDurations } = settings;
  const texts = settings.warningTexts ?? true;
  const largeTableRows = settings.largeTableRows ?? 1_000_000;
  const largeTableBytes = settings.largeTableBytes ?? 2 ** 30;
  const byKind = rulesByKindOf(rules);
  const pairs: Pair[] = [];
  for (let i = 0; i < parsed.length; i++) pairs.push({ stmt: parsed[i]!, facts: facts[parsed[i]!.index]! });
  const out: StatementFindings[] = [];
  let inTx = settings.assumeInTransaction;
  for (const p of parsed) {
    const kind = nodeKind(p.stmt);
    const duration = lockDurations ? lockDurations[p.index]! : 0;
    const ctx = new StatementRuleContext(p, facts[p.index]!, schema, pairs, inTx, duration, largeTableRows, largeTableBytes, assumeExisting);
    const warnings: string[] = [];
    const findings: Finding[] = [];
    let location: Finding['location'] | undefined;
    const applicable = rulesFor(rules, byKind, kind);
    // Indexed loops: this runs for every rule of every statement, mostly before the JIT warms up.
    for (let i = 0; i < applicable.length; i++) {
      const { rule, check } = applicable[i]!;
      const found = check.call(rule, ctx);
      for (let j = 0; j < found.length; j++) {
        const f = found[j]!;
        location ??= statementLocation(p);
        findings.push({ rule: f.rule, severity: rule.severity, statement_index: p.index, message: f.message, safer: f.safer, location });
        if (texts) warnings.push(findingText(f));
      }
    }
    if (kind === 'TransactionStmt') {
      const k = String(nodeBody(p.stmt).kind);
      if (k === 'TRANS_STMT_BEGIN' || k === 'TRANS_STMT_START') inTx = true;
      if (k === 'TRANS_STMT_COMMIT' || k === 'TRANS_STMT_ROLLBACK') inTx = settings.assumeInTransaction;
    }
    out.push({ findings, warnings });
  }
  return out;
}
