import { conditionShape, violatingRows } from './check-constraint-check';
import type { PreflightSession } from './preflight-session';
import type { PreflightCheck, PreflightContext, PreflightTask, TaskOutcome } from './types';

export const RECHECK_CONSTRAINT_CHECK = 'preflight_recheck_constraint';
const CHECK = RECHECK_CONSTRAINT_CHECK;

/**
 * An ALTER COLUMN ... TYPE that PostgreSQL makes without a rewrite (a varchar or numeric widened)
 * still drops and adds again the CHECK constraints that read the column, and checks them against
 * every row under ACCESS EXCLUSIVE (`statement-facts.ts` classes it a scan). The live rows passed
 * them already; the check reads every row again for all of them in one pass, as the ALTER does,
 * so its wall time measures the ALTER's scan (`SCANNING_CHECKS`, the lock-time estimate).
 */
function recheckTask(statementIndex: number, table: string, columns: string[]): PreflightTask {
  const what = `ALTER COLUMN ${columns.join(', ')} TYPE on ${table}: the CHECK constraints reading it checked again`;
  // The validated CHECKs of the live catalog that read one of the columns, as PostgreSQL prints them.
  const conditions = async (session: PreflightSession): Promise<string[]> => {
    const rel = await session.relation(table);
    if (!rel) return [];
    const rows = await session.query<{ expr: string }>(
      `SELECT pg_get_expr(c.conbin, c.conrelid) AS expr FROM pg_constraint c
        WHERE c.conrelid = $1 AND c.contype = 'c' AND c.convalidated
          AND c.conkey && ARRAY(SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attname = ANY ($2::text[]))
        ORDER BY c.conname`,
      [rel.oid, columns],
    );
    return rows.map((r) => r.expr);
  };
  const combined = (exprs: string[]): string => exprs.map((e) => `(${e})`).join(' AND ');
  return {
    check: CHECK,
    statementIndex,
    tables: [table],
    columns: columns.map((c) => `${table}.${c}`),
    label: what,
    async evaluates(session) {
      const exprs = await conditions(session);
      return exprs.length ? [conditionShape(table, combined(exprs))] : [];
    },
    async run(session): Promise<TaskOutcome> {
      const exprs = await conditions(session);
      if (!exprs.length) return { status: 'skipped', detail: `${what}: skipped, no validated CHECK reads it on the target` };
      return violatingRows(session, table, combined(exprs), [], what);
    },
  };
}

function tasks(ctx: PreflightContext): PreflightTask[] {
  // Only a type change classed as a scan: one without a rewrite that a CHECK reads.
  if (ctx.facts.effect !== 'scan') return [];
  const columns = ctx.subcommands.filter((c) => c.subtype === 'AT_AlterColumnType').map((c) => String(c.name ?? ''));
  return columns.length ? [recheckTask(ctx.stmt.index, ctx.facts.table, columns)] : [];
}

export const recheckConstraintCheck: PreflightCheck = {
  name: CHECK,
  doc: 'ALTER COLUMN TYPE without a rewrite checks the CHECK constraints reading the column again on every row: the scan is read once, as the ALTER will, and timed.',
  tasks: (ctx) => (ctx.facts.table ? tasks(ctx) : []),
};
