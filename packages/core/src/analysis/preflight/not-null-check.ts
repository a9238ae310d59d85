import { quoteIdent } from '../../pg/quote';
import { type AstNode, names } from '../ast';
import { count, rowIdentity } from './row-identity';
import { sampleNote } from './preflight-session';
import type { PreflightCheck, PreflightContext, PreflightTask } from './types';

export const NOT_NULL_CHECK = 'preflight_not_null';
const CHECK = NOT_NULL_CHECK;

/** A task proving `columns` of `table` hold no NULL (SET NOT NULL, the columns of a new primary key). */
export function notNullTask(statementIndex: number, table: string, columns: string[], what: string): PreflightTask {
  return {
    check: CHECK,
    statementIndex,
    tables: [table],
    columns: columns.map((c) => `${table}.${c}`),
    label: `${what} on ${table} (${columns.join(', ')})`,
    // Only IS NULL over columns: nothing of the migration is evaluated.
    evaluates: async () => [],
    async run(session) {
      const rel = (await session.relation(table))!;
      const src = await session.scan(rel, 1);
      const filters = columns.map((c, i) => `count(*) FILTER (WHERE ${quoteIdent(c)} IS NULL) AS n${i}`).join(', ');
      await session.planAsValidation('heap');
      const [row] = await session.query<Record<string, string>>(`SELECT count(*) AS total, ${filters} FROM ${src.from}`);
      const nulls = columns.map((c, i) => ({ column: c, n: Number(row?.[`n${i}`] ?? 0) })).filter((x) => x.n > 0);
      const total = count(row?.total ?? 0);
      if (nulls.length === 0)
        return {
          status: 'passed',
          detail: `${what} on ${table}: no NULL in ${columns.join(', ')} among ${total} rows${sampleNote(src)}`,
          sampled: src.sampled,
        };
      const id = await rowIdentity(session, rel);
      const where = nulls.map((x) => `${quoteIdent(x.column)} IS NULL`).join(' OR ');
      const examples = await session.query<{ id: unknown }>(`SELECT ${id.sql} AS id FROM ${src.from} WHERE ${where} LIMIT 5`);
      const found = nulls.map((x) => `${count(x.n)} of ${total} rows have NULL in ${x.column}`).join('; ');
      return {
        status: 'failed',
        detail: `${what} on ${table} would fail: ${found}${src.sampled ? ' in the sample' : ''} (e.g. ${examples.map((e) => id.show(e.id)).join(', ')})${sampleNote(src)}`,
        sampled: src.sampled,
      };
    },
  };
}

/** `ADD COLUMN c ... NOT NULL` without a default fails as soon as the table has one row. */
function addRequiredColumnTask(statementIndex: number, table: string, column: string): PreflightTask {
  return {
    check: CHECK,
    statementIndex,
    tables: [table],
    label: `ADD COLUMN ${column} NOT NULL without default on ${table}`,
    // Only IS NULL over columns: nothing of the migration is evaluated.
    evaluates: async () => [],
    async run(session) {
      const rel = (await session.relation(table))!;
      await session.setTimeout(session.limits.minStatementTimeoutMs);
      const [row] = await session.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${rel.sql}) AS any`);
      return row?.any
        ? {
            status: 'failed',
            detail: `ADD COLUMN ${column} NOT NULL without a default on ${table} would fail: the table has rows (about ${count(Math.round(rel.reltuples))}), and they would get NULL`,
          }
        : { status: 'passed', detail: `ADD COLUMN ${column} NOT NULL without a default on ${table}: the table is empty` };
    },
  };
}

const constraintsOf = (col: AstNode | undefined): AstNode[] => ((col?.constraints ?? []) as AstNode[]).map((c) => c.Constraint as AstNode);

function tasks(ctx: PreflightContext): PreflightTask[] {
  const table = ctx.facts.table;
  const out: PreflightTask[] = [];
  for (const cmd of ctx.subcommands) {
    if (cmd.subtype === 'AT_SetNotNull') out.push(notNullTask(ctx.stmt.index, table, [String(cmd.name)], 'SET NOT NULL'));
    const con = cmd.def?.Constraint as AstNode | undefined;
    if (cmd.subtype === 'AT_AddConstraint' && con?.contype === 'CONSTR_PRIMARY' && !con.indexname) {
      out.push(notNullTask(ctx.stmt.index, table, names(con.keys), 'ADD PRIMARY KEY'));
    }
    if (cmd.subtype === 'AT_AddColumn') {
      const col = cmd.def?.ColumnDef as AstNode | undefined;
      const cons = constraintsOf(col);
      const required = cons.some((c) => c.contype === 'CONSTR_NOTNULL' || c.contype === 'CONSTR_PRIMARY');
      const filled = cons.some((c) => c.contype === 'CONSTR_DEFAULT' || c.contype === 'CONSTR_IDENTITY' || c.contype === 'CONSTR_GENERATED');
      const serial = /serial/i.test(names(col?.typeName?.names).join('.'));
      if (required && !filled && !serial) out.push(addRequiredColumnTask(ctx.stmt.index, table, String(col?.colname)));
    }
  }
  return out;
}

export const notNullCheck: PreflightCheck = {
  name: CHECK,
  doc: 'SET NOT NULL, ADD PRIMARY KEY and ADD COLUMN ... NOT NULL without default fail when live rows hold NULL (or, for the new column, when the table has rows).',
  tasks: (ctx) => (ctx.facts.table && ctx.subcommands.length ? tasks(ctx) : []),
};
