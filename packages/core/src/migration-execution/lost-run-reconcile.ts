import type pg from 'pg';
import { pgQueryable } from '../store/pg-store';
import { connectPg } from '../connections/connect-pg';
import { loadConnectionTarget } from '../connections/load-connection-target';
import type { KeyProvider } from '../crypto/key-provider';
import type { CoreDeps } from '../deps';
import type { Queryable } from '../store/store';
import { describe, type Observed, observe } from './catalog-effects';
import { type PlannedStatement, planMigration, segmentPlan } from './migration-plan';
import { type CatalogCheck, EXECUTOR_CODES, type MigrationError, type StatementCheck } from './migration-outcome';

/**
 * After a lost executor, the request record is rebuilt from the database's catalog: what is
 * really there, not the statement counter. A killed executor's last statement may well have
 * finished on the server (a CREATE INDEX CONCURRENTLY keeps running after its client died, and
 * a COMMIT may have been sent just before the kill), so the record it left can be wrong.
 */

/** The application_name of an executor's session for one request, so its backend can be found after the executor is gone. */
export const executorApplicationName = (requestId: string): string => `dbops-migration:${requestId}`;

/** Per statement index: what each of its effects looked like before the run. */
export type CatalogBefore = Record<string, Observed[]>;

/** What the catalog shows now for every statement of the plan whose effect can be looked up. */
export async function observePlan(q: Queryable, plan: readonly PlannedStatement[]): Promise<CatalogBefore> {
  const withEffects = plan.filter((s) => s.effects && s.effects.length > 0);
  const found = await observe(
    q,
    withEffects.flatMap((s) => s.effects!),
  );
  const out: CatalogBefore = {};
  let at = 0;
  for (const s of withEffects) {
    out[String(s.index)] = found.slice(at, at + s.effects!.length);
    at += s.effects!.length;
  }
  return out;
}

/** One statement's state from its effects now and before the run. */
function judge(s: PlannedStatement, now: Observed[] | undefined, before: Observed[] | undefined): StatementCheck {
  const base = { statement_index: s.index };
  if (!s.effects || !now) return { ...base, state: 'unknown', evidence: 'its effect cannot be read from the catalog' };
  const evidence = s.effects.map((e, i) => describe(e, now[i]!)).join('; ');
  if (now.includes('invalid')) return { ...base, state: 'left_invalid', evidence };
  const reached = s.effects.every((e, i) => now[i] === (e.present ? 'present' : 'absent'));
  if (!reached) return { ...base, state: 'not_applied', evidence };
  if (before && s.effects.every((_, i) => before[i] === now[i])) return { ...base, state: 'unknown', evidence: `${evidence}, as before the run` };
  return { ...base, state: 'applied', evidence };
}

/**
 * The statements' states: each judged by its own effects, then a transaction's statements
 * together (it committed all or none), and what the executor recorded as applied is applied.
 */
export function rebuildStates(
  plan: readonly PlannedStatement[],
  now: CatalogBefore,
  before: CatalogBefore | null,
  recorded: ReadonlySet<number>,
): StatementCheck[] {
  const checks = new Map<number, StatementCheck>();
  for (const s of plan) if (s.mode !== 'skipped') checks.set(s.index, judge(s, now[String(s.index)], before?.[String(s.index)]));
  for (const segment of segmentPlan(plan)) {
    if (!segment.transactional) continue;
    const states = segment.statements.map((s) => checks.get(s.index)!);
    const committed = states.find((c) => c.state === 'applied' || recorded.has(c.statement_index));
    const rolledBack = states.find((c) => c.state === 'not_applied');
    for (const c of states) {
      if (c.state !== 'unknown') continue;
      if (committed)
        checks.set(c.statement_index, { ...c, state: 'applied', evidence: `committed in one transaction with statement ${committed.statement_index + 1}` });
      else if (rolledBack)
        checks.set(c.statement_index, {
          ...c,
          state: 'not_applied',
          evidence: `rolled back in one transaction with statement ${rolledBack.statement_index + 1}`,
        });
    }
  }
  for (const i of recorded) {
    const c = checks.get(i);
    if (c && c.state === 'unknown') checks.set(i, { ...c, state: 'applied', evidence: 'recorded as applied by the executor' });
  }
  return [...checks.values()].sort((a, b) => a.statement_index - b.statement_index);
}

/** The lost request's error, rebuilt from the statements' states. */
export function rebuiltError(plan: readonly PlannedStatement[], previous: MigrationError, check: CatalogCheck): MigrationError {
  const byIndex = new Map(plan.map((s) => [s.index, s]));
  const applied = check.statements.filter((c) => c.state === 'applied');
  const invalid = check.statements
    .filter((c) => c.state === 'left_invalid')
    .flatMap((c) => {
      const s = byIndex.get(c.statement_index);
      return (s?.effects ?? []).filter((e) => e.kind === 'index').map((e) => (e as { name: string }).name);
    });
  const unknown = check.statements.filter((c) => c.state === 'unknown').map((c) => c.statement_index + 1);
  const current = previous.statement_index === null ? undefined : check.statements.find((c) => c.statement_index === previous.statement_index);
  const hints: string[] = [];
  if (invalid.length > 0) hints.push(`Drop the INVALID index left behind (DROP INDEX CONCURRENTLY ${invalid.join(', ')}) before retrying.`);
  if (unknown.length > 0) hints.push(`The catalog cannot tell whether statement${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ran; check by hand.`);
  hints.push('Analyze a migration of the statements not applied.');
  return {
    ...previous,
    message:
      'The executor stopped renewing its lease while the migration was running (process killed, crashed or timed out); the migration was not retried. ' +
      'This record was rebuilt from the database catalog once the executor’s sessions had ended (catalog_check): it lists what is really applied.',
    applied_non_transactional: applied
      .filter((c) => byIndex.get(c.statement_index)?.mode === 'non_transactional')
      .map((c) => ({ statement_index: c.statement_index, sql: byIndex.get(c.statement_index)!.sql })),
    committed_transactional: applied.filter((c) => byIndex.get(c.statement_index)?.mode === 'transactional').map((c) => c.statement_index),
    rolled_back: current ? byIndex.get(current.statement_index)?.mode === 'transactional' && current.state !== 'applied' : previous.rolled_back,
    invalid_indexes: invalid,
    hint: hints.join(' '),
    catalog_check: check,
  };
}

/** Ends what is left of the lost executor's sessions (not the caller's own) and waits (up to 5 s) until they are gone. */
export async function endOrphans(client: pg.Client, requestId: string): Promise<number> {
  const name = executorApplicationName(requestId);
  const ended = await client.query(
    'SELECT pg_catalog.pg_terminate_backend(pid) FROM pg_catalog.pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
    [name],
  );
  for (let i = 0; i < 100 && (ended.rowCount ?? 0) > 0; i++) {
    const left = await client.query('SELECT 1 FROM pg_catalog.pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [name]);
    if (left.rowCount === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return ended.rowCount ?? 0;
}

interface LostRow {
  id: string;
  user_id: string;
  connection_id: string;
  sql: string;
  error: MigrationError | string;
  catalog_before: CatalogBefore | string | null;
  applied: Array<{ statement_index: number }> | string;
}

const parsed = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/**
 * Rebuilds the records of a user's lost requests (EXECUTOR_LOST without a catalog check yet), at
 * most a few per call, optionally of one request or connection. Each is checked once: when the
 * database cannot be reached the record keeps the executor's counter and says so.
 */
export async function reconcileLostRequests(
  deps: CoreDeps & { keyProvider: KeyProvider },
  userId: string,
  scope: { requestId?: string; connectionId?: string } = {},
): Promise<number> {
  const filter = scope.requestId ? 'AND id = $1' : scope.connectionId ? 'AND connection_id = $1' : 'AND $1::uuid IS NULL';
  const rows = await deps.store.query<LostRow>(
    `SELECT id, user_id, connection_id, sql, error, catalog_before, applied FROM migration_requests
      WHERE user_id = $2 AND status = 'failed' AND error->>'code' = '${EXECUTOR_CODES.EXECUTOR_LOST}' AND NOT (error ? 'catalog_check') ${filter}
      ORDER BY completed_at LIMIT 3`,
    [scope.requestId ?? scope.connectionId ?? null, userId],
  );
  for (const row of rows.rows) {
    const previous = parsed(row.error);
    let error: MigrationError;
    let client: pg.Client | undefined;
    try {
      const target = await loadConnectionTarget(deps, row.user_id, row.connection_id);
      client = (await connectPg(target, { applicationName: 'dbops-migration-check' })).client;
      const terminated = await endOrphans(client, row.id);
      const version = Number((await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]?.v ?? 0);
      const plan = await planMigration(row.sql, version);
      const now = await observePlan(pgQueryable(client), plan);
      const recorded = new Set(parsed(row.applied).map((a) => a.statement_index));
      const before = row.catalog_before === null ? null : parsed(row.catalog_before);
      const check: CatalogCheck = {
        checked_at: deps.clock.now().toISOString(),
        terminated_backends: terminated,
        statements: rebuildStates(plan, now, before, recorded),
      };
      error = rebuiltError(plan, previous, check);
    } catch {
      error = {
        ...previous,
        catalog_check: {
          checked_at: deps.clock.now().toISOString(),
          terminated_backends: 0,
          statements: [],
          error: 'The database could not be reached to check what the lost executor applied; the lists above are the executor’s own record.',
        },
      };
    } finally {
      await client?.end().catch(() => undefined);
    }
    await deps.store.query(`UPDATE migration_requests SET error = $2::jsonb WHERE id = $1 AND status = 'failed' AND NOT (error ? 'catalog_check')`, [
      row.id,
      JSON.stringify(error),
    ]);
  }
  return rows.rows.length;
}
