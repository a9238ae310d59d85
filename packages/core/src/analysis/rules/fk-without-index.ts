import { names, nodeBody, nodeKind, rangeVarName, type AstNode } from '../ast';
import { finding, NO_FINDINGS, type Rule, type RuleContext, type RuleFinding } from './rule';

type NewForeignKey = { cols: string[]; target: string };
type Pair = RuleContext['previous'][number];

// Plain loops and module-level functions: a closure created per call costs an allocation, and
// under tsx (esbuild's keepNames) a named one also a naming call.

function addForeignKey(out: NewForeignKey[], con: AstNode | undefined, col?: string): void {
  if (con?.contype !== 'CONSTR_FOREIGN') return;
  out.push({ cols: col ? [col] : names(con.fk_attrs), target: rangeVarName(con.pktable) });
}

function addColumnForeignKeys(out: NewForeignKey[], col: AstNode | undefined): void {
  const list = col?.constraints as AstNode[] | undefined;
  if (list) for (let i = 0; i < list.length; i++) addForeignKey(out, list[i]!.Constraint as AstNode | undefined, col!.colname);
}

function newForeignKeys(ctx: RuleContext): NewForeignKey[] {
  const out: NewForeignKey[] = [];
  if (nodeKind(ctx.stmt.stmt) === 'CreateStmt') {
    const elts = nodeBody(ctx.stmt.stmt).tableElts as AstNode[] | undefined;
    if (elts)
      for (let i = 0; i < elts.length; i++) {
        const el = elts[i]!;
        if (el.Constraint) addForeignKey(out, el.Constraint as AstNode);
        addColumnForeignKeys(out, el.ColumnDef as AstNode | undefined);
      }
  }
  const cmds = ctx.facts.subcommands;
  for (let i = 0; i < cmds.length; i++) {
    const def = cmds[i]!.def as AstNode | undefined;
    addForeignKey(out, def?.Constraint as AstNode | undefined);
    addColumnForeignKeys(out, def?.ColumnDef as AstNode | undefined);
  }
  return out;
}

/** The index columns start with the foreign key's columns, in order. */
function leads(ix: readonly string[], cols: readonly string[]): boolean {
  for (let i = 0; i < cols.length; i++) if (ix[i] !== cols[i]) return false;
  return true;
}

/** Column lists of the migration's other CREATE INDEX statements on `table`. */
function indexesInMigration(pairs: readonly Pair[], table: string, out: string[][]): void {
  for (let i = 0; i < pairs.length; i++) {
    const stmt = pairs[i]!.stmt.stmt;
    if (nodeKind(stmt) !== 'IndexStmt') continue;
    const b = nodeBody(stmt);
    if (rangeVarName(b.relation) !== table) continue;
    const params = (b.indexParams ?? []) as AstNode[];
    const cols: string[] = [];
    for (let j = 0; j < params.length; j++) cols.push(String(params[j]!.IndexElem?.name ?? ''));
    out.push(cols);
  }
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
    if (!fks.length) return NO_FINDINGS;
    const name = ctx.facts.table;
    const table = ctx.schema.table(name);
    let later: string[][] | undefined;
    let out: RuleFinding[] | undefined;
    for (let f = 0; f < fks.length; f++) {
      const fk = fks[f]!;
      let covered = false;
      if (table) {
        const indexes = table.indexes ?? [];
        for (let i = 0; i < indexes.length && !covered; i++) covered = leads(indexes[i]!.columns, fk.cols);
        if (!covered && table.primary_key) covered = leads(table.primary_key, fk.cols);
      }
      if (!covered) {
        if (!later) {
          later = [];
          indexesInMigration(ctx.previous, name, later);
          indexesInMigration(ctx.following, name, later);
        }
        for (let i = 0; i < later.length && !covered; i++) covered = leads(later[i]!, fk.cols);
      }
      if (covered) continue;
      const cols = fk.cols.join(', ');
      (out ??= []).push(
        finding(
          this.name,
          `Foreign key ${name}(${cols}) -> ${fk.target} has no index on the referencing columns: deletes and key updates on ${fk.target} scan ${name}.`,
          `CREATE INDEX CONCURRENTLY ON ${name} (${cols});`,
        ),
      );
    }
    return out ?? NO_FINDINGS;
  },
};
