import { formatCount } from '../../util/format-count';
import { blockedOperations } from '../lock-modes';
import type { StatementFacts } from '../statement-facts';
import type { StatementReport } from '../types';

/**
 * The documented bound: a statement needs a safe plan when it holds a lock that blocks writes
 * for longer than this, or scans, rewrites or builds an index over a table of at least
 * {@link LARGE_TABLE_ROWS} rows under such a lock (the estimate may be short; the size is not).
 */
export const WRITE_BLOCK_BOUND_MS = 100;
export const LARGE_TABLE_ROWS = 100_000;

/** Why the statement blocks writes for too long, or null when it does not. */
export function writeBlockingReason(statement: StatementReport, facts: StatementFacts, tableRows: number): string | null {
  if (!blockedOperations(statement.lock_type).writes) {
    // Row locks of a large UPDATE/DELETE block the writers of those rows for the whole transaction.
    if (facts.effect === 'data' && tableRows >= LARGE_TABLE_ROWS && /^(UPDATE|DELETE)/.test(statement.statement_type))
      return `changes rows of ${statement.table} (about ${formatCount(Math.round(tableRows))} rows) in one transaction, holding their row locks until it commits`;
    return null;
  }
  if (statement.lock_duration_ms > WRITE_BLOCK_BOUND_MS)
    return `holds ${statement.lock_type} on ${statement.table} for about ${Math.round(statement.lock_duration_ms)} ms, blocking writes`;
  if ((facts.effect === 'scan' || facts.effect === 'rewrite' || facts.effect === 'index_build') && tableRows >= LARGE_TABLE_ROWS)
    return `${facts.effect === 'scan' ? 'scans' : facts.effect === 'rewrite' ? 'rewrites' : 'builds an index over'} ${statement.table} (about ${formatCount(Math.round(tableRows))} rows) under ${statement.lock_type}, blocking writes`;
  return null;
}
