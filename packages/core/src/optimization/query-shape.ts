import { columnRefFields, exprToSql, operatorOf, unwrapCasts, cloneAst } from './ast-sql';
import type { CatalogTable } from './live-catalog';
import { walkAst, type AstNode } from '../pg/index';

/** A predicate or ORDER BY term of one SELECT level, resolved to a table. */
export interface ShapeTerm {
  table: CatalogTable;
  column: string;
  isExpression: boolean;
  kind: 'eq' | 'range' | 'order' | 'join';
  descending?: boolean;
}

/** The tables of one FROM list by alias (and by name). */
export function fromAliases(fromClause: unknown, tables: CatalogTable[]): Map<string, CatalogTable> {
  const out = new Map<string, CatalogTable>();
  walkAst(fromClause, (v) => {
    const rv = v.RangeVar as { relname?: string; schemaname?: string; alias?: { aliasname?: string } } | undefined;
    if (!rv?.relname) return;
    const t = tables.find((x) => x.name === rv.relname && (!rv.schemaname || x.schema === rv.schemaname));
    if (!t) return;
    out.set(rv.alias?.aliasname ?? rv.relname, t);
  });
  return out;
}

function resolve(node: unknown, aliases: Map<string, CatalogTable>): { table: CatalogTable; column: string; isExpression: boolean } | undefined {
  const bare = unwrapCasts(node);
  const fields = columnRefFields(bare);
  if (fields) {
    const col = fields[fields.length - 1]!;
    if (fields.length >= 2) {
      const t = aliases.get(fields[fields.length - 2]!);
      return t?.columns.has(col) ? { table: t, column: col, isExpression: false } : undefined;
    }
    const owners = [...new Set(aliases.values())].filter((t) => t.columns.has(col));
    return owners.length === 1 ? { table: owners[0]!, column: col, isExpression: false } : undefined;
  }
  const fn = (bare as { FuncCall?: { args?: unknown[] } } | null)?.FuncCall;
  if (fn?.args?.length === 1) {
    const inner = resolve(fn.args[0], aliases);
    if (!inner || inner.isExpression) return undefined;
    const copy = cloneAst(bare) as { FuncCall: { args: unknown[] } };
    copy.FuncCall.args = [{ ColumnRef: { fields: [{ String: { sval: inner.column } }] } }];
    return { table: inner.table, column: exprToSql(copy), isExpression: true };
  }
  return undefined;
}

const hasColumn = (node: unknown): boolean => {
  let found = false;
  walkAst(node, (v) => {
    if (v.ColumnRef) found = true;
  });
  return found;
};

/** Equality, range, join and ORDER BY terms of every SELECT level of a statement. */
export function queryShape(stmt: AstNode, tables: CatalogTable[]): ShapeTerm[] {
  const out: ShapeTerm[] = [];
  walkAst(stmt, (v) => {
    const sel = v.SelectStmt as
      { fromClause?: unknown; whereClause?: unknown; sortClause?: Array<{ SortBy: { node: unknown; sortby_dir?: string } }> } | undefined;
    if (!sel?.fromClause) return;
    const aliases = fromAliases(sel.fromClause, tables);
    const conds: unknown[] = [];
    const collect = (n: unknown): void => {
      const b = (n as { BoolExpr?: { boolop: string; args: unknown[] } } | null)?.BoolExpr;
      if (b?.boolop === 'AND_EXPR') b.args.forEach(collect);
      else if (n) conds.push(n);
    };
    collect(sel.whereClause);
    walkAst(sel.fromClause, (j) => {
      const je = j.JoinExpr as { quals?: unknown } | undefined;
      if (je?.quals) collect(je.quals);
    });
    for (const c of conds) {
      const a = (c as { A_Expr?: { kind: string; lexpr: unknown; rexpr: unknown; name: Array<{ String?: { sval?: string } }> } }).A_Expr;
      if (!a) continue;
      const op = operatorOf(a);
      const l = resolve(a.lexpr, aliases);
      const r = resolve(a.rexpr, aliases);
      if (a.kind === 'AEXPR_OP' && op === '=' && l && r) {
        out.push({ ...l, kind: 'join' }, { ...r, kind: 'join' });
        continue;
      }
      const side = l && !hasColumn(a.rexpr) ? l : r && !hasColumn(a.lexpr) ? r : undefined;
      if (!side) continue;
      if ((a.kind === 'AEXPR_OP' && op === '=') || a.kind === 'AEXPR_IN') out.push({ ...side, kind: 'eq' });
      else if ((a.kind === 'AEXPR_OP' && op && ['<', '<=', '>', '>='].includes(op)) || a.kind === 'AEXPR_BETWEEN') out.push({ ...side, kind: 'range' });
    }
    for (const s of sel.sortClause ?? []) {
      const t = resolve(s.SortBy.node, aliases);
      if (t) out.push({ ...t, kind: 'order', descending: s.SortBy.sortby_dir === 'SORTBY_DESC' });
    }
  });
  return out;
}
