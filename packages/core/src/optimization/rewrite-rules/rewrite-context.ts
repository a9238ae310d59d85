import type { RankedDocumentChunk } from '../../context/document-context';
import type { LiveCatalog } from '../live-catalog';
import type { AstNode } from '../../pg/index';
import type { OptimizableKind } from '../statement-check';

/** What every rewrite rule reads. Rules must not mutate `stmt`: they clone it. */
export interface RewriteContext {
  sql: string;
  stmt: AstNode;
  kind: OptimizableKind;
  paramCount: number;
  catalog: LiveCatalog;
  documents: RankedDocumentChunk[];
}

export interface RewriteCandidate {
  rule: string;
  rewritten_sql: string;
  explanation: string;
  /** True when documents decided the rewrite (sets `context_used`). */
  usedDocuments?: boolean;
  /** Kept even when the estimated cost does not drop (the gain is in row width, not plan cost). */
  keepAtEqualCost?: boolean;
}

export type RewriteRule = (ctx: RewriteContext) => Promise<RewriteCandidate[]>;

/** AST builders for the few node shapes rules create. */
export const ast = {
  col: (...names: string[]) => ({ ColumnRef: { fields: names.map((sval) => ({ String: { sval } })) } }),
  int: (ival: number) => ({ A_Const: ival === 0 ? { ival: {} } : { ival: { ival } } }),
  op: (name: string, lexpr: unknown, rexpr: unknown) => ({ A_Expr: { kind: 'AEXPR_OP', name: [{ String: { sval: name } }], lexpr, rexpr } }),
  and: (...args: unknown[]) => (args.length === 1 ? args[0] : { BoolExpr: { boolop: 'AND_EXPR', args } }),
  not: (arg: unknown) => ({ BoolExpr: { boolop: 'NOT_EXPR', args: [arg] } }),
  param: (number: number) => ({ ParamRef: { number } }),
  exists: (subselect: unknown) => ({ SubLink: { subLinkType: 'EXISTS_SUBLINK', subselect } }),
  one: () => [{ ResTarget: { val: { A_Const: { ival: { ival: 1 } } } } }],
};
