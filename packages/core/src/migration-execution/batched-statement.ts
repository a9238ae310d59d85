import { type AstNode, nodeKind } from '../pg/ast';
import { deparse } from '../pg/deparse';
import { quoteIdent } from '../pg/quote';
import { batchRefusal, targetOnly } from './batch-refusal';

/**
 * The SQL a batched `UPDATE`/`DELETE` runs as, built on its parse tree and written by the
 * deparser: the key range of each batch is added to the statement's own WHERE as tree nodes,
 * never by pasting text. Parameters: `$1` the lower bound (exclusive) when there is one, then
 * the upper bound (inclusive) when there is one.
 */
export interface BatchedStatement {
  kind: 'UPDATE' | 'DELETE';
  /** The target as written (`schema.table` or `table`), quoted, for `to_regclass`. */
  relation: string;
  /** `ONLY` was written: inheritance children are not touched. */
  only: boolean;
  /** The key column, unquoted. */
  key: string;
  /** `SELECT count(*)` of the rows the statement changes (the step's `rows_total`). */
  countSql: string;
  /** The key that ends the next batch of `size` rows after the lower bound; no row: the rest is the last batch. */
  upperSql(hasLower: boolean): string;
  /** The statement restricted to one batch. */
  batchSql(hasLower: boolean, hasUpper: boolean): string;
  /** The statement restricted to the rows after `lower` (a literal), to finish a step by hand. */
  remainderSql(lower: string | null): string;
}

/** Key types whose ordering is total and whose text form reads back as the same value (ranges are passed as text). */
export const BATCH_KEY_TYPES: ReadonlySet<string> = new Set([
  'int2',
  'int4',
  'int8',
  'numeric',
  'text',
  'varchar',
  'bpchar',
  'uuid',
  'date',
  'timestamp',
  'timestamptz',
  'bytea',
]);

const str = (sval: string): AstNode => ({ String: { sval } });
const op = (name: string, l: AstNode, r: AstNode): AstNode => ({ A_Expr: { kind: 'AEXPR_OP', name: [str(name)], lexpr: l, rexpr: r } });
const param = (n: number): AstNode => ({ ParamRef: { number: n } });
const int = (n: number): AstNode => ({ A_Const: { ival: n === 0 ? {} : { ival: n } } });
const and = (parts: Array<AstNode | undefined>): AstNode | undefined => {
  const args = parts.filter((p): p is AstNode => p !== undefined);
  return args.length <= 1 ? args[0] : { BoolExpr: { boolop: 'AND_EXPR', args } };
};

/**
 * The batched form of a parsed statement (`{UpdateStmt: ...}` / `{DeleteStmt: ...}`), or why it
 * cannot be batched by ranges of `key` without changing what it does. The catalog's side (a
 * unique NOT NULL key, no statement triggers or rules) is checked on the target at run time
 * (`batch-target-check.ts`) and, before a plan is offered, on the snapshot.
 */
export function batchedStatement(stmt: AstNode, key: string, size: number): BatchedStatement | string {
  const why = batchRefusal(stmt, key);
  if (why) return why;
  const kind = nodeKind(stmt) as 'UpdateStmt' | 'DeleteStmt';
  const body = stmt[kind] as AstNode;
  const rel = body.relation as AstNode;
  const qualifier = String(rel.alias?.aliasname ?? rel.relname);
  const keyRef = (): AstNode => ({ ColumnRef: { fields: [str(qualifier), str(key)] } });
  const others = (kind === 'UpdateStmt' ? body.fromClause : body.usingClause) as AstNode[] | undefined;
  const joined = (others?.length ?? 0) > 0;
  const from = [{ RangeVar: rel }, ...(others ?? [])];
  const where = body.whereClause as AstNode | undefined;
  const select = (fields: AstNode): AstNode => ({ SelectStmt: { limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE', fromClause: from, ...fields } });
  const range = (hasLower: boolean, hasUpper: boolean): AstNode[] => [
    ...(hasLower ? [op('>', keyRef(), param(1))] : []),
    ...(hasUpper ? [op('<=', keyRef(), param(hasLower ? 2 : 1))] : []),
  ];

  // A join may pair a target row with several rows: count and step over distinct keys.
  const counted = joined
    ? { FuncCall: { funcname: [str('count')], args: [keyRef()], agg_distinct: true, funcformat: 'COERCE_EXPLICIT_CALL' } }
    : { FuncCall: { funcname: [str('count')], agg_star: true, funcformat: 'COERCE_EXPLICIT_CALL' } };
  const countSql = deparse(select({ targetList: [{ ResTarget: { val: counted } }], ...(where ? { whereClause: where } : {}) }));
  return {
    kind: kind === 'UpdateStmt' ? 'UPDATE' : 'DELETE',
    relation: rel.schemaname ? `${quoteIdent(String(rel.schemaname))}.${quoteIdent(String(rel.relname))}` : quoteIdent(String(rel.relname)),
    only: targetOnly(stmt),
    key,
    countSql,
    upperSql: (hasLower) =>
      deparse(
        select({
          ...(joined ? { distinctClause: [{}] } : {}),
          targetList: [{ ResTarget: { val: keyRef() } }],
          whereClause: and([where, ...range(hasLower, false)]),
          sortClause: [{ SortBy: { node: keyRef(), sortby_dir: 'SORTBY_DEFAULT', sortby_nulls: 'SORTBY_NULLS_DEFAULT' } }],
          limitCount: int(1),
          limitOffset: int(size - 1),
          limitOption: 'LIMIT_OPTION_COUNT',
        }),
      ),
    batchSql: (hasLower, hasUpper) => deparse({ [kind]: { ...body, whereClause: and([where, ...range(hasLower, hasUpper)]) } }),
    remainderSql: (lower) =>
      deparse({ [kind]: { ...body, whereClause: and([where, ...(lower === null ? [] : [op('>', keyRef(), { A_Const: { sval: { sval: lower } } })])]) } }),
  };
}
