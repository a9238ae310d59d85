import { names, nodeBody, nodeKind, rangeVarName, type AstNode } from '../ast';
import { finding, type Rule } from './rule';

type NewForeignKey = { cols: string[]; target: string };

function addForeignKey(out: NewForeignKey[], con: AstNode | undefined, col?: string): void {
  if (con?.contype !== 'CONSTR_FOREIGN') return;
  out.push({ cols: col ? [col] : names(con.fk_attrs), target: rangeVarName(con.pktable) });
}

function newForeignKeys(ctx: Parameters<Rule['check']>[0]): NewForeignKey[] {
  const out: NewForeignKey[] = [];
  const kind = nodeKind(ctx.stmt.stmt);
  const b = nodeBody(ctx.stmt.stmt);
  if (kind === 'CreateStmt') {
    for (const el of (b.tableElts ?? []) as AstNode[]) {
      if (el.Constraint) addForeignKey(out, el.Constraint);
      for (const c of (el.ColumnDef?.constraints ?? []) as AstNode[]) addForeignKey(out, c.Constraint, el.ColumnDef.colname);
    }
  }
  for (const cmd of ctx.facts.subcommands) {
    addForeignKey(out, cmd.def?.Constraint);
    for (const c of (cmd.def?.ColumnDef?.constraints ?? []) as AstNode[]) addForeignKey(out, c.Constraint, cmd.def.ColumnDef.colname);
  }
  return out;
}

/**
 * Live-schema rule: without an index on the referencing columns every DELETE or key UPDATE on
 * the referenced table scans the referencing table (and ON DELETE CASCADE gets slow).
 */
export const fkWithoutIndex: Rule = {
  name: 'fk-without-index',
  severity: 'warning',
  doc: 'A foreign key whose referencing columns have no index (in the live schema or later in the migration).',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    const fks = newForeignKeys(ctx);
    if (!fks.length) return [];
    const table = ctx.schema.table(ctx.facts.table);
    const existing = (table?.indexes ?? []).map((i) => i.columns);
    const later = [...ctx.previous, ...ctx.following]
      .filter(({ stmt }) => nodeKind(stmt.stmt) === 'IndexStmt' && rangeVarName(nodeBody(stmt.stmt).relation) === ctx.facts.table)
      .map(({ stmt }) => ((nodeBody(stmt.stmt).indexParams ?? []) as AstNode[]).map((p) => String(p.IndexElem?.name ?? '')));
    const pk = table?.primary_key ? [table.primary_key] : [];
    const covered = (cols: string[]) => [...existing, ...later, ...pk].some((ix) => cols.every((c, i) => ix[i] === c));
    return fks
      .filter((fk) => !covered(fk.cols))
      .map((fk) =>
        finding(
          this.name,
          `Foreign key ${ctx.facts.table}(${fk.cols.join(', ')}) -> ${fk.target} has no index on the referencing columns: deletes and key updates on ${fk.target} scan ${ctx.facts.table}.`,
          `CREATE INDEX CONCURRENTLY ON ${ctx.facts.table} (${fk.cols.join(', ')});`,
        ),
      );
  },
};
