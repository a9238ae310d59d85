import type { RollbackPlan, RollbackStep } from '../analysis/types';

/**
 * Combines the steps in reverse statement order. Consecutive transactional steps share one
 * BEGIN/COMMIT block; a step that cannot run in a transaction (DROP INDEX CONCURRENTLY...)
 * sits between blocks, so the order of undo is kept.
 */
export function rollbackPlan(steps: readonly (RollbackStep & { non_transactional: boolean })[]): RollbackPlan {
  const lines: string[] = [];
  let inTx = false;
  for (const s of [...steps].reverse()) {
    const body = s.sql.trim();
    const isComment = body.split('\n').every((l) => l.startsWith('--'));
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
    steps: steps.map(({ non_transactional: _nt, ...step }) => step),
    combined_script: lines.join('\n'),
    has_irreversible: steps.some((s) => !s.reversible),
  };
}
