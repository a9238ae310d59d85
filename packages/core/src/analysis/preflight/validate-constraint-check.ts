import { conditionShape, violatingRows } from './check-constraint-check';
import { orphanRows } from './foreign-key-check';
import type { PreflightCheck, PreflightContext, PreflightTask, TaskOutcome } from './types';

export const VALIDATE_CONSTRAINT_CHECK = 'preflight_validate_constraint';
const CHECK = VALIDATE_CONSTRAINT_CHECK;

/**
 * `ALTER TABLE ... VALIDATE CONSTRAINT c` (the second half of the NOT VALID pattern) fails on the
 * rows the constraint was added without checking: the constraint is read from the live catalog
 * (its expression as PostgreSQL prints it, or its foreign key columns) and asked like a new one.
 */
function validateTask(statementIndex: number, table: string, name: string): PreflightTask {
  const what = `VALIDATE CONSTRAINT ${name} on ${table}`;
  return {
    check: CHECK,
    statementIndex,
    tables: [table],
    label: what,
    // A NOT VALID CHECK of the live catalog: its condition is evaluated like a new one.
    async evaluates(session) {
      const rel = await session.relation(table);
      if (!rel) return [];
      const rows = await session.query<{ expr: string }>(
        `SELECT pg_get_expr(conbin, conrelid) AS expr FROM pg_constraint WHERE conrelid = $1 AND conname = $2 AND contype = 'c' AND NOT convalidated`,
        [rel.oid, name],
      );
      return rows.map((r) => conditionShape(table, r.expr));
    },
    async run(session): Promise<TaskOutcome> {
      const rel = (await session.relation(table))!;
      const [con] = await session.query<{
        contype: string;
        expr: string | null;
        cols: string[];
        parent: string | null;
        pcols: string[] | null;
        full: boolean;
        valid: boolean;
      }>(
        `SELECT c.contype::text AS contype, pg_get_expr(c.conbin, c.conrelid) AS expr, c.convalidated AS valid,
                ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS cols,
                CASE WHEN c.contype = 'f' THEN quote_ident(pn.nspname) || '.' || quote_ident(pc.relname) END AS parent,
                ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS pcols,
                c.confmatchtype = 'f' AS full
           FROM pg_constraint c LEFT JOIN pg_class pc ON pc.oid = c.confrelid LEFT JOIN pg_namespace pn ON pn.oid = pc.relnamespace
          WHERE c.conrelid = $1 AND c.conname = $2`,
        [rel.oid, name],
      );
      if (!con) return { status: 'skipped', detail: `${what}: skipped, the constraint does not exist on the target yet (added by this migration)` };
      if (con.valid) return { status: 'passed', detail: `${what}: already validated` };
      if (con.contype === 'c' && con.expr) return violatingRows(session, table, con.expr, [], what);
      if (con.contype === 'f' && con.parent) {
        const parent = await session.relation(con.parent);
        if (!parent?.readable) return { status: 'skipped', detail: `${what}: skipped, the connection cannot read ${con.parent}` };
        return orphanRows(session, table, con.cols, parent.name, con.pcols ?? [], con.full, 'VALIDATE');
      }
      return { status: 'skipped', detail: `${what}: skipped, constraint type ${con.contype} is not checked` };
    },
  };
}

export const validateConstraintCheck: PreflightCheck = {
  name: CHECK,
  doc: 'VALIDATE CONSTRAINT fails on rows that violate the NOT VALID CHECK or foreign key it validates.',
  tasks: (ctx: PreflightContext) =>
    ctx.subcommands.filter((c) => c.subtype === 'AT_ValidateConstraint').map((c) => validateTask(ctx.stmt.index, ctx.facts.table, String(c.name))),
};
