import type { RollbackPlan, RollbackStep } from '../types';

function everyLineIsComment(text: string): boolean {
  for (let i = 0; ;) {
    if (!text.startsWith('--', i)) return false;
    const nl = text.indexOf('\n', i);
    if (nl < 0) return true;
    i = nl + 1;
  }
}

/**
 * Combines the steps in reverse statement order. Consecutive transactional steps share one
 * BEGIN/COMMIT block; a step that cannot run in a transaction (DROP INDEX CONCURRENTLY...)
 * sits between blocks, so the order of undo is kept.
 */
export function rollbackPlan(steps: readonly (RollbackStep & { non_transactional: boolean })[]): RollbackPlan {
  const lines: string[] = [];
  let inTx = false;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    const body = s.sql.trim();
    const isComment = everyLineIsComment(body);
    if (s.non_transactional && !isComment) {
      if (inTx) lines.push('COMMIT;');
      inTx = false;
      lines.push(`-- undo statement ${s.statement_index} (outside a transaction: it cannot run inside one)`, `${body};`);
      continue;
    }
    if (!inTx) lines.push('BEGIN;');
    inTx = true;
    lines.push(`-- undo statement ${s.statement_index}${s.warning ? `: ${s.warning}` : ''}`, isComment ? body : `${body};`);
  }
  if (inTx) lines.push('COMMIT;');
  return {
    steps: steps.map((s) => ({ statement_index: s.statement_index, sql: s.sql, reversible: s.reversible, warning: s.warning })),
    combined_script: lines.join('\n'),
    has_irreversible: steps.some((s) => !s.reversible),
    verified: null,
    verification: 'not verified: the sandbox did not run',
  };
}
