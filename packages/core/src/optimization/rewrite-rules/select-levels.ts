import { walkAst } from '../../pg/index';

/** A SELECT level of an AST (a `SelectStmt` body) with the fields rules read and edit. */
export interface SelectBody {
  targetList?: Array<{ ResTarget: { name?: string; val: unknown } }>;
  fromClause?: unknown[];
  whereClause?: unknown;
  groupClause?: unknown[];
  havingClause?: unknown;
  sortClause?: Array<{ SortBy: { node: unknown; sortby_dir?: string; sortby_nulls?: string } }>;
  limitCount?: unknown;
  limitOffset?: unknown;
  distinctClause?: unknown[];
  windowClause?: unknown[];
  op?: string;
  valuesLists?: unknown[];
  [key: string]: unknown;
}

/** Every SELECT body in an AST, outermost first. */
export function selectBodies(node: unknown): SelectBody[] {
  const out: SelectBody[] = [];
  walkAst(node, (v) => {
    if (v.SelectStmt) out.push(v.SelectStmt as SelectBody);
  });
  return out;
}

/** Top-level AND conjuncts of a WHERE clause. */
export function conjunctsOf(where: unknown): unknown[] {
  const b = (where as { BoolExpr?: { boolop: string; args: unknown[] } } | undefined)?.BoolExpr;
  if (b?.boolop === 'AND_EXPR') return b.args.flatMap(conjunctsOf);
  return where === undefined || where === null ? [] : [where];
}

/** True when the node tree contains an aggregate or window call (approximated by name). */
export function hasAggregate(node: unknown): boolean {
  const AGG = new Set(['count', 'sum', 'avg', 'min', 'max', 'array_agg', 'string_agg', 'bool_and', 'bool_or', 'json_agg', 'jsonb_agg']);
  let found = false;
  walkAst(node, (v) => {
    const f = v.FuncCall as { funcname?: Array<{ String?: { sval?: string } }>; over?: unknown } | undefined;
    if (f && (f.over || AGG.has(f.funcname?.[f.funcname.length - 1]?.String?.sval ?? ''))) found = true;
  });
  return found;
}
