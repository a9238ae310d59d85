import { type LiveRelation, pgCode, type PreflightSession } from './preflight-session';

/** Errors that mean "stop looking" rather than "this row fails": timeouts, lock waits, cancels. */
const ABORTING = new Set(['57014', '55P03', '57P01', '57P02', '57P03', '25006', '08006', '08003']);

/**
 * Evaluates `sql` under a savepoint: `null` when it ran, the error when it failed for a row.
 * The savepoint keeps the READ ONLY transaction usable after a failure; aborting errors
 * (timeout, lock wait, a write attempt) are rethrown.
 */
export async function tryUnderSavepoint(session: PreflightSession, sql: string, params: unknown[] = []): Promise<Error | null> {
  await session.query('SAVEPOINT preflight_probe');
  try {
    await session.query(sql, params);
    await session.query('RELEASE SAVEPOINT preflight_probe');
    return null;
  } catch (error) {
    await session.query('ROLLBACK TO SAVEPOINT preflight_probe');
    if (ABORTING.has(pgCode(error) ?? '')) throw error;
    return error as Error;
  }
}

const pageRange = (lo: number, hi: number): string => `ctid >= '(${lo},0)'::tid AND ctid < '(${hi},0)'::tid`;

/**
 * Finds up to `limit` rows for which evaluating `expr` raises an error, without any per-row
 * function: page ranges are bisected (TID range scans, PostgreSQL 14+), each probe under its own
 * savepoint inside the check's READ ONLY transaction, then the rows of a failing page are
 * evaluated one by one. Stops after `maxProbes` statements; `complete` says whether the search
 * reached the end of the table.
 */
export async function findFailingRows(
  session: PreflightSession,
  rel: LiveRelation,
  expr: string,
  limit = 5,
  maxProbes = 120,
): Promise<{ ctids: string[]; complete: boolean }> {
  const [bs] = await session.query<{ pages: string }>(`SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::text AS pages`, [rel.oid]);
  const pages = Number(bs?.pages ?? 0);
  let probes = 0;
  const fails = async (where: string, params: unknown[] = []): Promise<boolean> => {
    probes++;
    return (await tryUnderSavepoint(session, `SELECT count(${expr}) FROM ${rel.sql} WHERE ${where}`, params)) !== null;
  };
  const out: string[] = [];
  let from = 0;
  while (out.length < limit && from < pages && probes < maxProbes) {
    let lo = from;
    let hi = pages;
    if (!(await fails(pageRange(lo, hi)))) return { ctids: out, complete: true };
    while (hi - lo > 1 && probes < maxProbes) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (await fails(pageRange(lo, mid))) hi = mid;
      else lo = mid;
    }
    if (hi - lo > 1) break;
    const rows = await session.query<{ ctid: string }>(`SELECT ctid::text AS ctid FROM ${rel.sql} WHERE ${pageRange(lo, lo + 1)}`);
    for (const r of rows) {
      if (out.length >= limit || probes >= maxProbes) break;
      if (await fails('ctid = $1::tid', [r.ctid])) out.push(r.ctid);
    }
    from = lo + 1;
  }
  return { ctids: out, complete: from >= pages };
}
