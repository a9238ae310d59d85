import { type AstNode, nodeKind } from '../ast';

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);

/** A constant as the planner sees one: a literal, or a literal cast to a type. */
const isConstant = (n: AstNode | undefined): boolean => !!n && (nodeKind(n) === 'A_Const' || (nodeKind(n) === 'TypeCast' && isConstant(n.TypeCast.arg)));

/** The items of a list operand (`IN (...)`, `BETWEEN a AND b`), wrapped or not. */
const listItems = (n: AstNode | AstNode[] | undefined): AstNode[] => (Array.isArray(n) ? n : ((n?.List?.items ?? []) as AstNode[]));

/** The column a bare reference names (last part), or null. */
function columnOf(n: AstNode | undefined): string | null {
  const fields = n?.ColumnRef?.fields as AstNode[] | undefined;
  if (!fields?.length) return null;
  const last = fields[fields.length - 1]!;
  return last.String?.sval ? String(last.String.sval) : null;
}

/**
 * Whether the planner's row estimate for a WHERE rests on statistics (every condition compares
 * a column that has statistics with constants, combined with AND/OR/NOT) or is one of its
 * default guesses (an expression, a function, two columns compared, a column without
 * statistics: PostgreSQL then assumes 0.5 % or 33 % of the rows, whatever the data). Returns
 * the first reason the estimate is a guess, or null when it can be trusted.
 */
export function weakEstimateReason(where: AstNode, statsColumns: ReadonlySet<string>): string | null {
  const kind = nodeKind(where);
  const b = where[kind] as AstNode;
  const withStats = (col: string | null): string | null =>
    col === null ? 'it compares an expression' : statsColumns.has(col) ? null : `column ${col} has no statistics`;
  switch (kind) {
    case 'BoolExpr': {
      for (const arg of (b.args ?? []) as AstNode[]) {
        const r = weakEstimateReason(arg, statsColumns);
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
