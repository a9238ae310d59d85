import { deparse } from '../../pg/deparse';
import { quoteIdent } from '../../pg/quote';
import { type AstNode, names, nodeKind } from '../ast';
import { conditionShape, violatingRows } from './check-constraint-check';
import { renameColumnRef } from './expression-columns';
import type { PreflightSession } from './preflight-session';
import type { PreflightCheck, PreflightContext, PreflightTask, TaskOutcome } from './types';

const CHECK = 'preflight_domain_constraint';

/**
 * ALTER DOMAIN ... ADD CONSTRAINT (validated) and SET NOT NULL check every column of the
 * domain's type in every table: the task finds those columns in the live catalog and asks each
 * table with the domain's VALUE replaced by the column.
 */
/** Table columns of the domain's type, in the live catalog. */
const domainColumns = (session: PreflightSession, domainSql: string) =>
  session.query<{ nsp: string; rel: string; col: string }>(
    `SELECT n.nspname AS nsp, c.relname AS rel, a.attname AS col
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE a.atttypid = to_regtype($1) AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'm')
      ORDER BY 1, 2, 3`,
    [domainSql],
  );

function domainTask(statementIndex: number, domain: string[], body: AstNode): PreflightTask {
  const domainSql = domain.map(quoteIdent).join('.');
  const con = body.def?.Constraint as AstNode | undefined;
  const notNull = body.subtype === 'O';
  const what = notNull ? `ALTER DOMAIN ${domain.join('.')} SET NOT NULL` : `ALTER DOMAIN ${domain.join('.')} ADD CHECK (${deparse(con!.raw_expr as AstNode)})`;
  return {
    check: CHECK,
    statementIndex,
    tables: [],
    label: what,
    async evaluates(session) {
      if (notNull) return [];
      const cols = await domainColumns(session, domainSql);
      return cols.map((c) => conditionShape(`${c.nsp}.${c.rel}`, deparse(renameColumnRef(con!.raw_expr as AstNode, 'value', c.col))));
    },
    async run(session) {
      const cols = await domainColumns(session, domainSql);
      if (cols.length === 0) return { status: 'passed', detail: `${what}: no table column uses the domain` };
      const failed: string[] = [];
      const skipped: string[] = [];
      let sampled = false;
      for (const c of cols) {
        const table = `${c.nsp}.${c.rel}`;
        const rel = await session.relation(table);
        if (!rel?.readable) {
          skipped.push(`${table}.${c.col} (no SELECT privilege)`);
          continue;
        }
        const condition = notNull ? `${quoteIdent(c.col)} IS NOT NULL` : deparse(renameColumnRef(con!.raw_expr as AstNode, 'value', c.col));
        const r: TaskOutcome = await violatingRows(session, table, condition, [c.col], `${table}.${c.col}`);
        sampled ||= !!r.sampled;
        if (r.status === 'failed') failed.push(r.detail);
      }
      const skipNote = skipped.length ? `; skipped, the connection cannot read: ${skipped.join(', ')}` : '';
      if (failed.length) return { status: 'failed', detail: `${what} would fail: ${failed.join('; ')}${skipNote}`, sampled };
      return {
        status: skipped.length === cols.length ? 'skipped' : 'passed',
        detail: `${what}: ${cols.length - skipped.length} column(s) checked, no violation${skipNote}`,
        sampled,
      };
    },
  };
}

export const domainConstraintCheck: PreflightCheck = {
  name: CHECK,
  doc: 'ALTER DOMAIN ADD CONSTRAINT (validated) and SET NOT NULL fail when a column of the domain holds a violating value.',
  tasks(ctx: PreflightContext) {
    if (nodeKind(ctx.stmt.stmt) !== 'AlterDomainStmt') return [];
    const b = ctx.stmt.stmt.AlterDomainStmt as AstNode;
    const con = b.def?.Constraint as AstNode | undefined;
    const applies = b.subtype === 'O' || (b.subtype === 'C' && con?.contype === 'CONSTR_CHECK' && !con.skip_validation && con.raw_expr);
    return applies ? [domainTask(ctx.stmt.index, names(b.typeName), b)] : [];
  },
};
