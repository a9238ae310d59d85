import { deparse } from '../../pg/deparse';
import { quoteIdent, quoteQualified } from '../../pg/quote';
import { type AstNode, names } from '../ast';
import { expressionColumns } from './expression-columns';
import { pgCode, type PreflightSession, sampleNote } from './preflight-session';
import { count, rowIdentity } from './row-identity';
import { showValue } from './sensitive-values';
import type { PreflightCheck, PreflightContext, PreflightTask, TaskOutcome } from './types';

const CHECK = 'preflight_exclusion';

interface Element {
  /** SQL of the element (a quoted column or a parenthesised expression). */
  sql: string;
  /** Column name or expression text, for details and masking. */
  label: string;
  /** The operator, ready to put between two values (`=`, `&&`, `OPERATOR(pg_catalog.&&)`). */
  op: string;
}

function element(item: AstNode): Element | null {
  const [elem, ops] = (item.List?.items ?? []) as AstNode[];
  const el = elem?.IndexElem as AstNode | undefined;
  const opName = names(ops?.List?.items);
  if (!el || !opName.length) return null;
  const op = opName.length === 1 ? opName[0]! : `OPERATOR(${opName.slice(0, -1).map(quoteIdent).join('.')}.${opName[opName.length - 1]})`;
  if (el.name) return { sql: quoteIdent(String(el.name)), label: String(el.name), op };
  const expr = deparse(el.expr as AstNode);
  return { sql: `(${expr})`, label: expr, op };
}

/**
 * Pairs of live rows the new exclusion constraint would reject: rows where every element's
 * operator holds between the two (a NULL element makes a row conflict with none, as in
 * PostgreSQL), inside the constraint's WHERE. Each row is compared with every other through a
 * self-join on a materialised read of the table: equality elements let the planner hash, a
 * range-overlap-only constraint on a large table may run into its statement_timeout (reported
 * as not finished).
 */
async function conflictingRows(session: PreflightSession, table: string, elements: Element[], where: string | null, what: string): Promise<TaskOutcome> {
  const rel = (await session.relation(table))!;
  // A self-join: budget it like several scans.
  const src = await session.scan(rel, 8);
  const id = await rowIdentity(session, rel);
  const keys = elements.map((e, i) => `${e.sql} AS k${i}`).join(', ');
  const rows = `WITH r AS MATERIALIZED (SELECT row_number() OVER () AS n_, ${id.sql} AS id_, ${keys} FROM ${src.from}${where ? ` WHERE ${where}` : ''})`;
  const on = elements.map((e, i) => `a.k${i} ${e.op} b.k${i}`).join(' AND ');
  const shown = elements.map((_, i) => `a.k${i}::text AS a${i}, b.k${i}::text AS b${i}`).join(', ');
  const pairs = await session.query<Record<string, unknown> & { a: unknown; b: unknown }>(
    `${rows} SELECT a.id_ AS a, b.id_ AS b, ${shown} FROM r a JOIN r b ON a.n_ < b.n_ AND ${on} LIMIT 5`,
  );
  const label = elements.map((e) => `${e.label} WITH ${e.op}`).join(', ');
  if (pairs.length === 0) return { status: 'passed', detail: `${what}: no two rows conflict (${label})${sampleNote(src)}`, sampled: src.sampled };
  // How many rows conflict with at least one other; the examples already decide the outcome, so
  // a count that runs out of time only makes the figure a lower bound.
  let total = `at least ${pairs.length} pair(s) of rows`;
  try {
    await session.query('SAVEPOINT preflight_count');
    const [c] = await session.query<{ n: string }>(`${rows} SELECT count(*)::text AS n FROM r a WHERE EXISTS (SELECT 1 FROM r b WHERE b.n_ <> a.n_ AND ${on})`);
    total = `${count(c?.n ?? 0)} row(s)`;
  } catch (error) {
    if (pgCode(error) !== '57014') throw error;
    await session.query('ROLLBACK TO SAVEPOINT preflight_count');
  }
  const examples = pairs
    .map(
      (p) =>
        `${id.show(p.a)} and ${id.show(p.b)} (${elements.map((e, i) => `${e.label}: ${showValue(e.label, p[`a${i}`])} / ${showValue(e.label, p[`b${i}`])}`).join(', ')})`,
    )
    .join('; ');
  return {
    status: 'failed',
    detail: `${what} would fail: ${total}${src.sampled ? ' in the sample' : ''} conflict with another row (${label}), e.g. ${examples}${sampleNote(src)}`,
    sampled: src.sampled,
  };
}

function exclusionTask(statementIndex: number, table: string, con: AstNode): PreflightTask | null {
  const elements = ((con.exclusions ?? []) as AstNode[]).map(element);
  if (!elements.length || elements.some((e) => !e)) return null;
  const where = con.where_clause ? deparse(con.where_clause as AstNode) : null;
  const columns = [
    ...new Set([
      ...((con.exclusions ?? []) as AstNode[]).flatMap((x) => expressionColumns(x)),
      ...(con.where_clause ? expressionColumns(con.where_clause) : []),
    ]),
  ];
  const what = `ADD EXCLUDE${con.conname ? ` ${String(con.conname)}` : ''} on ${table}`;
  return {
    check: CHECK,
    statementIndex,
    tables: [table],
    columns: columns.map((c) => `${table}.${c}`),
    label: what,
    evaluates: async () => [
      // Each element against itself: the same operators and functions as the self-join calls.
      `SELECT 1 FROM ${quoteQualified(table)} WHERE ${(elements as Element[]).map((e) => `${e.sql} ${e.op} ${e.sql}`).join(' AND ')}${where ? ` AND (${where})` : ''}`,
    ],
    run: (session) => conflictingRows(session, table, elements as Element[], where, what),
  };
}

function tasks(ctx: PreflightContext): PreflightTask[] {
  const out: PreflightTask[] = [];
  for (const cmd of ctx.subcommands) {
    const con = cmd.def?.Constraint as AstNode | undefined;
    if (cmd.subtype !== 'AT_AddConstraint' || con?.contype !== 'CONSTR_EXCLUSION') continue;
    const task = exclusionTask(ctx.stmt.index, ctx.facts.table, con);
    if (task) out.push(task);
  }
  return out;
}

export const exclusionCheck: PreflightCheck = {
  name: CHECK,
  doc: 'ADD CONSTRAINT ... EXCLUDE fails when two live rows conflict under its operators; reports how many rows and up to 5 pairs, masked for personal columns.',
  tasks: (ctx) => (ctx.facts.table ? tasks(ctx) : []),
};
