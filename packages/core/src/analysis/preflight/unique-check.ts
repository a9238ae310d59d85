import { deparse } from '../../pg/deparse';
import { quoteIdent, quoteQualified } from '../../pg/quote';
import { type AstNode, names, nodeKind, rangeVarName } from '../ast';
import { count } from './row-identity';
import { sampleNote } from './preflight-session';
import { showValue } from './sensitive-values';
import type { PreflightCheck, PreflightContext, PreflightTask } from './types';

const CHECK = 'preflight_unique';

interface Key {
  /** SQL of the key expression (a quoted column or a deparsed expression). */
  sql: string;
  /** How the key is named in details (column name or expression text); decides masking. */
  label: string;
  column?: string;
}

/**
 * A task looking for duplicate keys: groups of rows with equal non-NULL keys (with NULLS NOT
 * DISTINCT, NULLs count as equal too), inside the partial index's predicate when there is one.
 */
function uniqueTask(statementIndex: number, table: string, keys: Key[], what: string, options: { where?: string; nullsNotDistinct?: boolean }): PreflightTask {
  return {
    check: CHECK,
    statementIndex,
    tables: [table],
    columns: keys.flatMap((k) => (k.column ? [`${table}.${k.column}`] : [])),
    label: `${what} on ${table} (${keys.map((k) => k.label).join(', ')})`,
    // Plain columns compare with their type's own equality; expressions and predicates are the migration's.
    evaluates: async () =>
      keys.some((k) => !k.column) || options.where
        ? [
            `SELECT ${keys.map((k) => k.sql).join(', ')} FROM ${quoteQualified(table)}${options.where ? ` WHERE ${options.where}` : ''} GROUP BY ${keys.map((_, i) => i + 1).join(', ')}`,
          ]
        : [],
    async run(session) {
      const rel = (await session.relation(table))!;
      // Grouping sorts or hashes every key: budget it like several scans.
      const src = await session.scan(rel, 4);
      const cols = keys.map((k, i) => `${k.sql} AS k${i}`).join(', ');
      const notNull = options.nullsNotDistinct ? '' : `WHERE ${keys.map((_, i) => `k${i} IS NOT NULL`).join(' AND ')}`;
      const groupBy = keys.map((_, i) => `k${i}`).join(', ');
      const text = keys.map((_, i) => `k${i}::text AS k${i}`).join(', ');
      const rows = await session.query<Record<string, unknown> & { n: string; groups: string; dup_rows: string }>(
        `SELECT ${text}, n, count(*) OVER () AS groups, sum(n) OVER () AS dup_rows FROM (
           SELECT ${groupBy}, count(*) AS n FROM (SELECT ${cols} FROM ${src.from}${options.where ? ` WHERE ${options.where}` : ''}) s
            ${notNull} GROUP BY ${groupBy} HAVING count(*) > 1) d
         ORDER BY n DESC LIMIT 5`,
      );
      const label = keys.map((k) => k.label).join(', ');
      if (rows.length === 0) return { status: 'passed', detail: `${what} on ${table}: no duplicate (${label})${sampleNote(src)}`, sampled: src.sampled };
      const first = rows[0]!;
      const examples = rows.map((r) => `(${keys.map((k, i) => showValue(k.label, r[`k${i}`])).join(', ')}) x${r.n}`).join(', ');
      return {
        status: 'failed',
        detail: `${what} on ${table} would fail: ${count(first.groups)} duplicate key value(s) of (${label}) over ${count(first.dup_rows)} rows${src.sampled ? ' in the sample' : ''}, e.g. ${examples}${sampleNote(src)}`,
        sampled: src.sampled,
      };
    },
  };
}

const columnKey = (c: string): Key => ({ sql: quoteIdent(c), label: c, column: c });

function indexKeys(params: AstNode[]): Key[] {
  return params.map((p) => {
    const el = p.IndexElem as AstNode;
    if (el.name) return columnKey(String(el.name));
    const expr = deparse(el.expr as AstNode);
    return { sql: `(${expr})`, label: expr };
  });
}

function tasks(ctx: PreflightContext): PreflightTask[] {
  const i = ctx.stmt.index;
  const kind = nodeKind(ctx.stmt.stmt);
  if (kind === 'IndexStmt') {
    const b = ctx.stmt.stmt.IndexStmt as AstNode;
    if (!b.unique) return [];
    return [
      uniqueTask(i, rangeVarName(b.relation), indexKeys((b.indexParams ?? []) as AstNode[]), 'CREATE UNIQUE INDEX', {
        ...(b.whereClause ? { where: deparse(b.whereClause as AstNode) } : {}),
        nullsNotDistinct: !!b.nulls_not_distinct,
      }),
    ];
  }
  const out: PreflightTask[] = [];
  for (const cmd of ctx.subcommands) {
    const con = cmd.def?.Constraint as AstNode | undefined;
    if (cmd.subtype !== 'AT_AddConstraint' || !con || con.indexname) continue;
    if (con.contype !== 'CONSTR_PRIMARY' && con.contype !== 'CONSTR_UNIQUE') continue;
    const what = con.contype === 'CONSTR_PRIMARY' ? 'ADD PRIMARY KEY' : 'ADD UNIQUE';
    out.push(uniqueTask(i, ctx.facts.table, names(con.keys).map(columnKey), what, { nullsNotDistinct: !!con.nulls_not_distinct }));
  }
  return out;
}

export const uniqueCheck: PreflightCheck = {
  name: CHECK,
  doc: 'CREATE UNIQUE INDEX, ADD UNIQUE and ADD PRIMARY KEY fail when live rows hold duplicate keys; reports how many and up to 5, masked for personal columns.',
  tasks: (ctx) => (ctx.facts.table ? tasks(ctx) : []),
};
