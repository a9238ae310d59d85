import { formatCount } from '../../util/format-count';
import { blockedOperations } from '../lock-modes';
import type { StatementFacts } from '../statement-facts';
import type { StatementReport } from '../types';

/**
 * The documented bound: a statement needs a safe plan when it holds a lock that blocks writes
 * for longer than this, or scans, rewrites or builds an index over a table of at least
 * {@link LARGE_TABLE_ROWS} rows under such a lock (the estimate may be short; the size is not), or
 * drops an index of such a table. The row bound is a setting (`DBOPS_SAFE_PLAN_MIN_ROWS`): a team
 * whose smaller tables are busy enough to matter can lower it.
 */
export const WRITE_BLOCK_BOUND_MS = 100;
export const LARGE_TABLE_ROWS = 100_000;

/** Why the statement blocks writes for too long, or null when it does not. */
export function writeBlockingReason(statement: StatementReport, facts: StatementFacts, tableRows: number, largeTableRows = LARGE_TABLE_ROWS): string | null {
  if (!blockedOperations(statement.lock_type).writes) {
    // Row locks of a large UPDATE/DELETE block the writers of those rows for the whole transaction.
    if (facts.effect === 'data' && tableRows >= largeTableRows && /^(UPDATE|DELETE)/.test(statement.statement_type))
      return `changes rows of ${statement.table} (about ${formatCount(Math.round(tableRows))} rows) in one transaction, holding their row locks until it commits`;
    return null;
  }
  // Its own hold is short, but it queues behind every query running on the table, and every read
  // and write queues behind it meanwhile: on a large, busy table that is the outage. CONCURRENTLY
  // waits for those queries without blocking anyone.
  if (statement.statement_type === 'DROP_INDEX' && tableRows >= largeTableRows)
    return `takes ${statement.lock_type} on ${statement.table} (about ${formatCount(Math.round(tableRows))} rows) to drop an index: while it waits for the queries running on the table, every read and write queues behind it`;
  if (statement.lock_duration_ms > WRITE_BLOCK_BOUND_MS)
    return `holds ${statement.lock_type} on ${statement.table} for about ${Math.round(statement.lock_duration_ms)} ms, blocking writes`;
  if ((facts.effect === 'scan' || facts.effect === 'rewrite' || facts.effect === 'index_build') && tableRows >= largeTableRows)
    return `${facts.effect === 'scan' ? 'scans' : facts.effect === 'rewrite' ? 'rewrites' : 'builds an index over'} ${statement.table} (about ${formatCount(Math.round(tableRows))} rows) under ${statement.lock_type}, blocking writes`;
  return null;
}
