import { type AstNode, nodeKind } from '../ast';

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);

/**
 * A constant as the planner sees one: a literal, a literal cast to a type, or an operator over
 * such constants (`now()`-free arithmetic like `'2024-01-01'::timestamptz + interval '1 day'`,
 * which the planner folds before it estimates).
 */
const isConstant = (n: AstNode | undefined): boolean =>
  !!n &&
  (nodeKind(n) === 'A_Const' ||
    (nodeKind(n) === 'TypeCast' && isConstant(n.TypeCast.arg)) ||
    (nodeKind(n) === 'A_Expr' && n.A_Expr.kind === 'AEXPR_OP' && (n.A_Expr.lexpr === undefined || isConstant(n.A_Expr.lexpr)) && isConstant(n.A_Expr.rexpr)));

/** The items of a list operand (`IN (...)`, `BETWEEN a AND b`), wrapped or not. */
const listItems = (n: AstNode | AstNode[] | undefined): AstNode[] => (Array.isArray(n) ? n : ((n?.List?.items ?? []) as AstNode[]));

/** The column a bare reference names (last part), or null. */
function columnOf(n: AstNode | undefined): string | null {
  const fields = n?.ColumnRef?.fields as AstNode[] | undefined;
  if (!fields?.length) return null;
  const last = fields[fields.length - 1]!;
  return last.String?.sval ? String(last.String.sval) : null;
}

/** Columns a condition reads, when it is one of the simple comparisons {@link weakEstimateReason} trusts. */
function conditionColumns(where: AstNode, out: Set<string>): void {
  const kind = nodeKind(where);
  const b = where[kind] as AstNode;
  if (kind === 'BoolExpr') for (const arg of (b.args ?? []) as AstNode[]) conditionColumns(arg, out);
  else if (kind === 'A_Expr') {
    const col = columnOf(b.lexpr) ?? columnOf(b.rexpr);
    if (col) out.add(col);
  } else if (kind === 'NullTest' || kind === 'BooleanTest') {
    const col = columnOf(b.arg);
    if (col) out.add(col);
  } else if (kind === 'ColumnRef') {
    const col = columnOf(where);
    if (col) out.add(col);
  }
}

/**
 * Whether the planner's row estimate for a WHERE rests on statistics (every condition compares
 * a column that has statistics with constants, combined with AND/OR/NOT) or is one of its
 * default guesses (an expression, a function, two columns compared, a column without
 * statistics: PostgreSQL then assumes 0.5 % or 33 % of the rows, whatever the data). Conditions
 * on two or more columns joined by AND are multiplied as if the columns were independent, which
 * is off by orders of magnitude for correlated columns (a status and a date, a city and a zip
 * code), unless extended statistics (`CREATE STATISTICS`) cover those columns together:
 * `extendedStats` lists the column sets that have them. Returns the first reason the estimate is
 * a guess, or null when it can be trusted.
 */
export function weakEstimateReason(where: AstNode, statsColumns: ReadonlySet<string>, extendedStats: ReadonlyArray<ReadonlySet<string>> = []): string | null {
  const own = conditionReason(where, statsColumns);
  if (own) return own;
  if (nodeKind(where) !== 'BoolExpr' || where.BoolExpr.boolop !== 'AND_EXPR') return null;
  const columns = new Set<string>();
  conditionColumns(where, columns);
  if (columns.size < 2 || extendedStats.some((set) => [...columns].every((c) => set.has(c)))) return null;
  const names = [...columns].sort();
  return `it combines conditions on columns ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}, which the planner takes as independent`;
}

function conditionReason(where: AstNode, statsColumns: ReadonlySet<string>): string | null {
  const kind = nodeKind(where);
  const b = where[kind] as AstNode;
  const withStats = (col: string | null): string | null =>
    col === null ? 'it compares an expression' : statsColumns.has(col) ? null : `column ${col} has no statistics`;
  switch (kind) {
    case 'BoolExpr': {
      for (const arg of (b.args ?? []) as AstNode[]) {
        const r = conditionReason(arg, statsColumns);
        if (r) return r;
      }
      return null;
    }
    case 'A_Expr': {
      const op = String(((b.name ?? []) as AstNode[]).map((x) => x.String?.sval ?? '').join('.'));
      if (b.kind === 'AEXPR_OP' && COMPARISONS.has(op)) {
        if (isConstant(b.rexpr)) return withStats(columnOf(b.lexpr));
        if (isConstant(b.lexpr)) return withStats(columnOf(b.rexpr));
        return 'it compares two expressions';
      }
      if (b.kind === 'AEXPR_IN' && listItems(b.rexpr).every(isConstant)) return withStats(columnOf(b.lexpr));
      if ((b.kind === 'AEXPR_BETWEEN' || b.kind === 'AEXPR_NOT_BETWEEN') && listItems(b.rexpr).every(isConstant)) return withStats(columnOf(b.lexpr));
      if (b.kind === 'AEXPR_LIKE' || b.kind === 'AEXPR_ILIKE') return isConstant(b.rexpr) ? withStats(columnOf(b.lexpr)) : 'it matches an expression';
      return `it uses ${op || 'an operator'} the planner estimates by default`;
    }
    case 'NullTest':
      return withStats(columnOf(b.arg));
    case 'BooleanTest':
      return withStats(columnOf(b.arg));
    case 'ColumnRef':
      return withStats(columnOf(where));
    default:
      return `it uses ${kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}, which the planner estimates by a default guess`;
  }
}
