import { quoteQualified } from '../../pg/quote';
import type { LockMode } from '../types';

/** pg_locks mode names -> the mode names the report uses. */
const PG_MODE: Record<string, LockMode> = {
  AccessShareLock: 'ACCESS SHARE',
  RowShareLock: 'ROW SHARE',
  RowExclusiveLock: 'ROW EXCLUSIVE',
  ShareUpdateExclusiveLock: 'SHARE UPDATE EXCLUSIVE',
  ShareLock: 'SHARE',
  ShareRowExclusiveLock: 'SHARE ROW EXCLUSIVE',
  ExclusiveLock: 'EXCLUSIVE',
  AccessExclusiveLock: 'ACCESS EXCLUSIVE',
};

/** The conflict table of the explicit-locking chapter: the modes each mode conflicts with. */
const CONFLICTS: Record<Exclude<LockMode, 'NONE'>, readonly LockMode[]> = {
  'ACCESS SHARE': ['ACCESS EXCLUSIVE'],
  'ROW SHARE': ['EXCLUSIVE', 'ACCESS EXCLUSIVE'],
  'ROW EXCLUSIVE': ['SHARE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE'],
  'SHARE UPDATE EXCLUSIVE': ['SHARE UPDATE EXCLUSIVE', 'SHARE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE'],
  SHARE: ['ROW EXCLUSIVE', 'SHARE UPDATE EXCLUSIVE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE'],
  'SHARE ROW EXCLUSIVE': ['ROW EXCLUSIVE', 'SHARE UPDATE EXCLUSIVE', 'SHARE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE'],
  EXCLUSIVE: ['ROW SHARE', 'ROW EXCLUSIVE', 'SHARE UPDATE EXCLUSIVE', 'SHARE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE'],
  'ACCESS EXCLUSIVE': ['ACCESS SHARE', 'ROW SHARE', 'ROW EXCLUSIVE', 'SHARE UPDATE EXCLUSIVE', 'SHARE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE'],
};

export const lockConflicts = (a: LockMode, b: LockMode): boolean => a !== 'NONE' && b !== 'NONE' && CONFLICTS[a].includes(b);

/** Another session holding or awaiting a lock on a table the migration locks. */
export interface Blocker {
  pid: number;
  table: string;
  mode: LockMode;
  granted: boolean;
  state: string;
  /** Seconds since the blocker's transaction began (null outside a transaction). */
  xactSeconds: number | null;
  application: string;
}

export interface QueueClient {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Sessions (other than ours) holding or waiting for locks on `tables`, with their transaction's age. */
export async function lockHolders(client: QueueClient, tables: string[]): Promise<Blocker[]> {
  if (!tables.length) return [];
  const res = await client.query(
    `SELECT l.pid, l.mode, l.granted, c.oid::regclass::text AS rel, coalesce(a.state, '') AS state,
            extract(epoch FROM clock_timestamp() - a.xact_start)::float8 AS xact_seconds, coalesce(a.application_name, '') AS app
       FROM pg_locks l JOIN pg_class c ON c.oid = l.relation LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'relation' AND l.pid <> pg_backend_pid() AND l.relation = ANY(SELECT to_regclass(t) FROM unnest($1::text[]) AS t)
      ORDER BY xact_seconds DESC NULLS LAST`,
    [tables.map(quoteQualified)],
  );
  return (res.rows as Array<{ pid: number; mode: string; granted: boolean; rel: string; state: string; xact_seconds: number | null; app: string }>).map(
    (r) => ({
      pid: r.pid,
      table: tables.find((t) => quoteQualified(t) === r.rel || t.endsWith(`.${r.rel}`)) ?? r.rel,
      mode: PG_MODE[r.mode] ?? 'ACCESS EXCLUSIVE',
      granted: r.granted,
      state: r.state,
      xactSeconds: r.xact_seconds,
      application: r.app,
    }),
  );
}

const age = (s: number | null): string => (s === null ? 'no open transaction' : s >= 120 ? `open ${Math.round(s / 60)} min` : `open ${Math.round(s)} s`);

/**
 * What happens to a statement taking `mode` on `table` given the sessions on it now: the
 * conflicting ones it would queue behind, and how `lock_timeout` (ms, from the migration's own
 * SET, or null when it sets none) would behave. Null when nothing conflicts.
 */
export function queueWarning(table: string, mode: LockMode, blockers: readonly Blocker[], lockTimeoutMs: number | null): string | null {
  const ahead = blockers.filter((b) => b.table === table && lockConflicts(mode, b.mode));
  if (!ahead.length) return null;
  const pids = [...new Map(ahead.map((b) => [b.pid, b])).values()];
  const oldest = Math.max(...pids.map((b) => b.xactSeconds ?? 0));
  const who = pids
    .slice(0, 3)
    .map(
      (b) =>
        `pid ${b.pid} (${b.granted ? 'holds' : 'waits for'} ${b.mode}, ${b.state || 'unknown state'}, transaction ${age(b.xactSeconds)}${b.application ? `, ${b.application}` : ''})`,
    )
    .join(', ');
  const more = pids.length > 3 ? ` and ${pids.length - 3} more` : '';
  const queue = 'while it waits, every later query on the table that conflicts with it queues behind it';
  const retry =
    lockTimeoutMs === null
      ? `without lock_timeout it waits until they finish (the oldest transaction has been open ${Math.round(oldest)} s) and ${queue}: set lock_timeout (e.g. 2s) and retry`
      : `with lock_timeout = ${lockTimeoutMs} ms each attempt gives up after ${lockTimeoutMs} ms (${queue} for that long); retries keep failing until those transactions end, the oldest open ${Math.round(oldest)} s so far`;
  return `[lock-queue] ${mode} on ${table} would queue behind ${who}${more}: ${retry}.`;
}
