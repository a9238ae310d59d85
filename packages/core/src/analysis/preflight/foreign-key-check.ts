import { quoteIdent } from '../../pg/quote';
import { type AstNode, names, rangeVarName } from '../ast';
import { count, primaryKeyColumns } from './row-identity';
import { type PreflightSession, sampleNote } from './preflight-session';
import { showValue } from './sensitive-values';
import type { PreflightCheck, PreflightContext, PreflightTask, TaskOutcome } from './types';

export const FOREIGN_KEY_CHECK = 'preflight_foreign_key';
const CHECK = FOREIGN_KEY_CHECK;

/**
 * Referencing rows of `table` whose key has no row in `parent`: a validated foreign key fails on
 * them. MATCH SIMPLE ignores rows with any NULL key column; MATCH FULL also fails rows whose key
 * columns are NULL only in part. `named` empty means the parent's primary key.
 */
export async function orphanRows(
  session: PreflightSession,
  table: string,
  fkCols: string[],
  parent: string,
  named: string[],
  full: boolean,
  what: string,
): Promise<TaskOutcome> {
  const rel = (await session.relation(table))!;
  const parentRel = (await session.relation(parent))!;
  const pkCols = named.length ? named : await primaryKeyColumns(session, parentRel);
  if (pkCols.length !== fkCols.length)
    return { status: 'skipped', detail: `${what}: skipped, the referenced columns could not be determined (no primary key on ${parent})` };
  // One index probe per referencing row: budget it like a few scans.
  const src = await session.scan(rel, 3);
  const c = (col: string) => `c.${quoteIdent(col)}`;
  const allSet = fkCols.map((x) => `${c(x)} IS NOT NULL`).join(' AND ');
  const match = pkCols.map((p, i) => `p.${quoteIdent(p)} = ${c(fkCols[i]!)}`).join(' AND ');
  const orphan = `(${allSet} AND NOT EXISTS (SELECT 1 FROM ${parentRel.sql} p WHERE ${match}))`;
  const partial = full && fkCols.length > 1 ? ` OR (NOT (${allSet}) AND NOT (${fkCols.map((x) => `${c(x)} IS NULL`).join(' AND ')}))` : '';
  await session.planAsValidation('foreign-key');
  const shown = fkCols.length === 1 ? `${c(fkCols[0]!)}::text` : `ROW(${fkCols.map(c).join(', ')})::text`;
  const rows = await session.query<{ k: unknown; total: string }>(
    `SELECT ${shown} AS k, count(*) OVER () AS total FROM ${src.from} c WHERE ${orphan}${partial} LIMIT 5`,
  );
  const label = `${what} ${table} (${fkCols.join(', ')}) -> ${parent} (${pkCols.join(', ')})`;
  if (rows.length === 0) return { status: 'passed', detail: `${label}: every key has its referenced row${sampleNote(src)}`, sampled: src.sampled };
  const examples = [...new Set(rows.map((r) => showValue(fkCols.join(','), r.k)))].join(', ');
  return {
    status: 'failed',
    detail: `${label} would fail: ${count(rows[0]!.total)} row(s)${src.sampled ? ' in the sample' : ''} reference no row of ${parent}${partial ? ' or set the key only in part (MATCH FULL)' : ''}, e.g. ${examples}${sampleNote(src)}`,
    sampled: src.sampled,
  };
}

function foreignKeyTask(statementIndex: number, table: string, con: AstNode): PreflightTask {
  const parent = rangeVarName(con.pktable);
  const fkCols = names(con.fk_attrs);
  const named = names(con.pk_attrs);
  return {
    check: CHECK,
    statementIndex,
    tables: [table, parent],
    columns: [...fkCols.map((c) => `${table}.${c}`), ...named.map((c) => `${parent}.${c}`)],
    label: `ADD FOREIGN KEY ${table} (${fkCols.join(', ')}) -> ${parent}`,
    // Key columns compared with their types' equality: nothing of the migration is evaluated.
    evaluates: async () => [],
    run: (session) => orphanRows(session, table, fkCols, parent, named, con.fk_matchtype === 'f', 'ADD FOREIGN KEY'),
  };
}

function tasks(ctx: PreflightContext): PreflightTask[] {
  const out: PreflightTask[] = [];
  for (const cmd of ctx.subcommands) {
    const con = cmd.def?.Constraint as AstNode | undefined;
    if (cmd.subtype === 'AT_AddConstraint' && con?.contype === 'CONSTR_FOREIGN' && !con.skip_validation)
      out.push(foreignKeyTask(ctx.stmt.index, ctx.facts.table, con));
  }
  return out;
}

export const foreignKeyCheck: PreflightCheck = {
  name: CHECK,
  doc: 'ADD FOREIGN KEY (validated) fails when live rows reference missing rows; reports the orphans and up to 5 of their keys.',
  tasks: (ctx) => (ctx.facts.table ? tasks(ctx) : []),
};
