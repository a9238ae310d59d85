import type { PlanSession } from './plan-session';

/**
 * Whether HypoPG can be used on this database: already installed, or available to install,
 * in which case it is created inside the validation's rolled-back transaction and never stays.
 */
export type HypopgMode = 'installed' | 'available' | 'absent';

export async function detectHypopg(session: PlanSession): Promise<HypopgMode> {
  const installed = await session.client.query(`SELECT 1 FROM pg_extension WHERE extname = 'hypopg'`);
  if (installed.rowCount) return 'installed';
  const available = await session.client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'hypopg'`);
  return available.rowCount ? 'available' : 'absent';
}

/** Inside a transaction: makes HypoPG usable, or reports that it cannot be (e.g. no privilege to create it). */
export async function enableHypopg(session: PlanSession, mode: HypopgMode): Promise<boolean> {
  if (mode === 'installed') return true;
  if (mode === 'absent') return false;
  await session.client.query('SAVEPOINT dbops_hypopg');
  try {
    await session.client.query('CREATE EXTENSION IF NOT EXISTS hypopg');
    return true;
  } catch {
    await session.client.query('ROLLBACK TO SAVEPOINT dbops_hypopg');
    return false;
  }
}

/** Plans `sql` with a hypothetical index and returns the new cost and HypoPG's size estimate. */
export async function costWithHypotheticalIndex(
  session: PlanSession,
  createIndexSql: string,
  sql: string,
  paramCount: number,
): Promise<{ cost: number; sizeBytes: number } | null> {
  await session.client.query('SAVEPOINT dbops_hypo_index');
  try {
    const created = await session.client.query<{ indexrelid: number }>('SELECT indexrelid FROM hypopg_create_index($1)', [createIndexSql]);
    const oid = created.rows[0]!.indexrelid;
    const cost = await session.planCost(sql, paramCount);
    const size = await session.client.query<{ size: string }>('SELECT hypopg_relation_size($1)::text AS size', [oid]);
    await session.client.query('SELECT hypopg_reset()');
    return { cost, sizeBytes: Number(size.rows[0]!.size) };
  } catch {
    // HypoPG refuses some definitions (e.g. a non-immutable expression): the candidate cannot be checked.
    await session.client.query('ROLLBACK TO SAVEPOINT dbops_hypo_index');
    await session.client.query('SELECT hypopg_reset()').catch(() => undefined);
    return null;
  }
}
