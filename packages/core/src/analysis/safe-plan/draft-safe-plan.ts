import { BATCH_DEFAULTS, readBatchAnnotation } from '../../migration-execution/batched-annotation';
import { nodeKind } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { SchemaIndex } from '../schema-index';
import type { StatementFacts } from '../statement-facts';
import type { StatementReport } from '../types';
import { REWRITE_RULES } from './rewrites';
import type { BatchingOptions } from './rewrites/rewrite-context';
import type { DraftStep, SafePlanStep } from './types';
import { LARGE_TABLE_ROWS, writeBlockingReason } from './write-blocking';

/** `lock_timeout` of every step: a step that cannot get its lock soon gives up and is retried by the executor, instead of queueing traffic behind it. */
export const STEP_LOCK_TIMEOUT = '2s';

export interface SafePlanDraft {
  steps: SafePlanStep[];
  combined_script: string;
  /** The rewrites applied, one sentence each. */
  rewrites: string[];
  /** Tables whose column order the plan changes (`Rewrite.reordered`): the proof tolerates and reports that, for these tables only. */
  reordered: string[];
  /** Columns whose values the plan computes at another time (`Rewrite.volatile`): the proof compares their non-null counts. */
  volatile: string[];
}

/** A draft to prove, or why there is none (`reason` null: the migration needs no safe plan). */
export type DraftOutcome = { draft: SafePlanDraft; reason: null } | { draft: null; reason: string | null };

const TRANSACTION_CONTROL = new Set(['TransactionStmt']);

/** The plan as one script: each transactional step one explicit transaction, CONCURRENTLY steps alone. */
export function combinedScript(steps: readonly DraftStep[]): string {
  const parts = [`SET lock_timeout = '${STEP_LOCK_TIMEOUT}';`];
  for (const s of steps) parts.push(s.transactional ? `BEGIN;\n${s.sql};\nCOMMIT;` : `${s.sql};`);
  return `${parts.join('\n')}\n`;
}

/**
 * The statements of a migration with every statement that blocks writes for too long
 * (`write-blocking.ts`) replaced by the steps of the first rewrite rule that knows it; the other
 * statements run as they are, consecutive ones in one transaction as the executor would.
 */
export function draftSafePlan(
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  statements: readonly StatementReport[],
  index: SchemaIndex,
  batching: BatchingOptions = { size: BATCH_DEFAULTS.size, pauseMs: BATCH_DEFAULTS.pauseMs },
  largeTableRows = LARGE_TABLE_ROWS,
): DraftOutcome {
  const risky = parsed.map((p) => {
    const f = facts[p.index]!;
    const s = statements[p.index]!;
    // A statement the script already runs in batches holds its row locks one batch at a time.
    const annotation = readBatchAnnotation(p.sql);
    if (annotation && !('error' in annotation)) return null;
    return writeBlockingReason(s, f, index.table(f.table)?.row_estimate ?? 0, largeTableRows);
  });
  if (risky.every((r) => r === null)) return { draft: null, reason: null };
  if (parsed.some((p) => TRANSACTION_CONTROL.has(nodeKind(p.stmt))))
    return { draft: null, reason: 'the migration manages its own transactions (BEGIN/COMMIT); a safe plan sets its own, so it is not rewritten' };
  const steps: DraftStep[] = [];
  const rewrites: string[] = [];
  const reordered: string[] = [];
  const volatile: string[] = [];
  const absorbed = new Set<number>();
  const script = { parsed, facts, statements };
  let plain: ParsedStatement[] = [];
  const flush = () => {
    if (!plain.length) return;
    const strongest = plain.map((p) => statements[p.index]!).reduce((a, b) => (b.lock_duration_ms > a.lock_duration_ms ? b : a));
    steps.push({
      sql: plain.map((p) => p.sql.replace(/;\s*$/, '')).join(';\n'),
      transactional: true,
      lock_type: strongest.lock_type,
      lock_duration_ms: strongest.lock_duration_ms,
      batched: false,
    });
    plain = [];
  };
  for (const p of parsed) {
    if (absorbed.has(p.index)) continue;
    const f = facts[p.index]!;
    const s = statements[p.index]!;
    const why = risky[p.index];
    if (!why) {
      if (f.non_transactional) {
        flush();
        steps.push({ sql: p.sql.replace(/;\s*$/, ''), transactional: false, lock_type: s.lock_type, lock_duration_ms: s.lock_duration_ms, batched: false });
      } else plain.push(p);
      continue;
    }
    const ctx = { stmt: p, facts: f, report: s, table: index.table(f.table), schema: index, batching, script };
    const rule = REWRITE_RULES.find((r) => r.applies(ctx));
    if (!rule) return { draft: null, reason: `statement ${p.index} (${s.statement_type}) ${why}, and dbops knows no safe form of it yet` };
    const out = rule.rewrite(ctx);
    if (typeof out === 'string') return { draft: null, reason: `statement ${p.index} (${s.statement_type}) ${why}: ${out}` };
    flush();
    steps.push(...out.steps);
    rewrites.push(out.explanation);
    reordered.push(...(out.reordered ?? []));
    volatile.push(...(out.volatile ?? []));
    for (const i of out.absorbs ?? []) absorbed.add(i);
  }
  flush();
  return {
    draft: { steps: steps.map((s, i) => ({ index: i, ...s })), combined_script: combinedScript(steps), rewrites, reordered, volatile },
    reason: null,
  };
}
