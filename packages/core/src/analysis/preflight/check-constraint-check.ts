import { deparse } from '../../pg/deparse';
import { quoteIdent, quoteQualified } from '../../pg/quote';
import type { AstNode } from '../ast';
import { expressionColumns } from './expression-columns';
import { count, rowIdentity } from './row-identity';
import { type PreflightSession, sampleNote } from './preflight-session';
import { showValue } from './sensitive-values';
import type { PreflightCheck, PreflightContext, PreflightTask, TaskOutcome } from './types';

export const CHECK_CONSTRAINT_CHECK = 'preflight_check_constraint';
const CHECK = CHECK_CONSTRAINT_CHECK;

/**
 * Rows of `table` for which `condition` is false (a CHECK passes on NULL, as PostgreSQL's does),
 * with up to 5 examples showing the values of the columns the condition reads.
 */
export async function violatingRows(session: PreflightSession, table: string, condition: string, shownColumns: string[], what: string): Promise<TaskOutcome> {
  const rel = (await session.relation(table))!;
  const src = await session.scan(rel, 1);
  const id = await rowIdentity(session, rel);
  const cols = shownColumns.slice(0, 3);
  const select = [`${id.sql} AS id`, ...cols.map((c, i) => `${quoteIdent(c)}::text AS v${i}`)].join(', ');
  await session.planAsValidation('heap');
  const rows = await session.query<Record<string, unknown> & { total: string }>(
    `SELECT ${select}, count(*) OVER () AS total FROM ${src.from} WHERE NOT (${condition}) LIMIT 5`,
  );
  if (rows.length === 0) return { status: 'passed', detail: `${what}: every row satisfies it${sampleNote(src)}`, sampled: src.sampled };
  const examples = rows
    .map((r) => `${id.show(r.id)}${cols.length ? ` (${cols.map((c, i) => `${c} = ${showValue(c, r[`v${i}`])}`).join(', ')})` : ''}`)
    .join('; ');
  return {
    status: 'failed',
    detail: `${what} would fail: ${count(rows[0]!.total)} row(s)${src.sampled ? ' in the sample' : ''} violate it, e.g. ${examples}${sampleNote(src)}`,
    sampled: src.sampled,
  };
}

/** The shape {@link violatingRows} evaluates, for the live-expression gate. */
export const conditionShape = (table: string, condition: string): string => `SELECT 1 FROM ${quoteQualified(table)} WHERE NOT (${condition})`;

function checkTask(statementIndex: number, table: string, con: AstNode): PreflightTask {
  const condition = deparse(con.raw_expr as AstNode);
  const columns = expressionColumns(con.raw_expr);
  const what = `ADD CHECK (${condition.length > 80 ? `${condition.slice(0, 77)}...` : condition}) on ${table}`;
  return {
    check: CHECK,
    statementIndex,
    tables: [table],
    columns: columns.map((c) => `${table}.${c}`),
    label: what,
    evaluates: async () => [conditionShape(table, condition)],
    run: (session) => violatingRows(session, table, condition, columns, what),
  };
}

function tasks(ctx: PreflightContext): PreflightTask[] {
  const out: PreflightTask[] = [];
  for (const cmd of ctx.subcommands) {
    const con = cmd.def?.Constraint as AstNode | undefined;
    if (cmd.subtype === 'AT_AddConstraint' && con?.contype === 'CONSTR_CHECK' && !con.skip_validation && con.raw_expr)
      out.push(checkTask(ctx.stmt.index, ctx.facts.table, con));
  }
  return out;
}

export const checkConstraintCheck: PreflightCheck = {
  name: CHECK,
  doc: 'ADD CHECK (validated) fails when a live row makes the condition false; reports how many and up to 5 with the values read.',
  tasks: (ctx) => (ctx.facts.table ? tasks(ctx) : []),
};
