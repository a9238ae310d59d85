import type { AstNode } from '../pg/ast';
import { cloneAst, columnRefFields, exprToSql, operatorOf, unwrapCasts } from './ast-sql';
import { parseTree, walkAst } from '../pg/index';

/**
 * One indexable conjunct of a plan condition for one relation.
 * - `eq`: `col = const`, `col IN (...)`, `col = ANY(...)`;
 * - `range`: `<, <=, >, >=, BETWEEN`;
 * - `partial`: `IS NULL`, `IS NOT NULL`, a boolean column: better as a partial index predicate;
 * - `join`: `col = other_relation.col`.
 */
export interface Predicate {
  kind: 'eq' | 'range' | 'partial' | 'join';
  /** Column name, or an expression over the relation's columns (unqualified) for expression indexes. */
  column: string;
  isExpression: boolean;
  /** Unqualified SQL of the whole conjunct, for partial index predicates. */
  sql: string;
  /** The other side's `alias.column` for a join predicate. */
  joinTarget?: { alias: string; column: string };
}

const RANGE_OPS = new Set(['<', '<=', '>', '>=']);

/** Splits a plan condition such as `((o.a = 1) AND (o.b > 2))` into indexable predicates on `alias`. */
export async function predicatesFor(condition: string | undefined, alias: string): Promise<Predicate[]> {
  if (!condition) return [];
  let where: unknown;
  try {
    const parsed = await parseTree(`SELECT 1 WHERE ${condition}`);
    where = (parsed.stmts[0]!.stmt.SelectStmt as { whereClause?: unknown }).whereClause;
  } catch {
    return [];
  }
  const out: Predicate[] = [];
  for (const conjunct of conjuncts(where)) {
    const p = classify(conjunct, alias);
    if (p) out.push(p);
  }
  return out;
}

function conjuncts(node: unknown): unknown[] {
  const b = (node as { BoolExpr?: { boolop: string; args: unknown[] } }).BoolExpr;
  if (b?.boolop === 'AND_EXPR') return b.args.flatMap(conjuncts);
  return [node];
}

/** The aliases referenced by an expression. */
function aliasesIn(node: unknown): Set<string> {
  const out = new Set<string>();
  walkAst(node, (v) => {
    const fields = columnRefFields(v);
    if (fields && fields.length >= 2) out.add(fields[fields.length - 2]!);
  });
  return out;
}

/** The expression with relation qualifiers removed, as index key text. */
function unqualified(node: unknown): string {
  const copy = cloneAst(node);
  walkAst(copy, (v) => {
    const ref = v.ColumnRef as { fields: unknown[] } | undefined;
    if (ref?.fields && ref.fields.length > 1) ref.fields = ref.fields.slice(-1);
  });
  return exprToSql(copy);
}

/** Column name when `node` (casts stripped) is a column of `alias`; an expression key when it only reads `alias`. */
function keyOf(node: unknown, alias: string): { column: string; isExpression: boolean } | undefined {
  const bare = unwrapCasts(node);
  const fields = columnRefFields(bare);
  if (fields) {
    const owner = fields.length >= 2 ? fields[fields.length - 2] : alias;
    return owner === alias ? { column: fields[fields.length - 1]!, isExpression: false } : undefined;
  }
  const aliases = aliasesIn(bare);
  if (aliases.size === 1 && aliases.has(alias) && (bare as Record<string, unknown>).FuncCall) {
    return { column: unqualified(bare), isExpression: true };
  }
  return undefined;
}

const isFree = (node: unknown, alias: string): boolean => !aliasesIn(node).has(alias);

function classify(node: unknown, alias: string): Predicate | undefined {
  const n = node as AstNode;
  const sql = unqualified(node);
  if (n.NullTest) {
    const k = keyOf(n.NullTest.arg, alias);
    return k && !k.isExpression ? { kind: 'partial', ...k, sql } : undefined;
  }
  if (n.ColumnRef || n.BooleanTest) {
    const k = keyOf(n.ColumnRef ? n : n.BooleanTest.arg, alias);
    return k && !k.isExpression ? { kind: 'partial', ...k, sql } : undefined;
  }
  if (n.BoolExpr?.boolop === 'NOT_EXPR' && columnRefFields(n.BoolExpr.args[0])) {
    const k = keyOf(n.BoolExpr.args[0], alias);
    return k ? { kind: 'partial', ...k, sql } : undefined;
  }
  const a = n.A_Expr;
  if (!a) return undefined;
  const op = operatorOf(a);
  if (a.kind === 'AEXPR_BETWEEN') {
    const k = keyOf(a.lexpr, alias);
    return k && isFree(a.rexpr, alias) ? { kind: 'range', ...k, sql } : undefined;
  }
  if ((a.kind === 'AEXPR_OP_ANY' || a.kind === 'AEXPR_IN') && op === '=') {
    const k = keyOf(a.lexpr, alias);
    return k && isFree(a.rexpr, alias) ? { kind: 'eq', ...k, sql } : undefined;
  }
  if (a.kind !== 'AEXPR_OP' || !op) return undefined;
  // `<` and `>` are range either way round, so which side holds the column does not matter.
  for (const [mine, other] of [
    [a.lexpr, a.rexpr],
    [a.rexpr, a.lexpr],
  ] as const) {
    const k = keyOf(mine, alias);
    if (!k || !isFree(other, alias)) continue;
    const otherFields = columnRefFields(unwrapCasts(other));
    if (op === '=' && otherFields && otherFields.length >= 2) {
      return { kind: 'join', ...k, sql, joinTarget: { alias: otherFields[otherFields.length - 2]!, column: otherFields[otherFields.length - 1]! } };
    }
    if (op === '=' && aliasesIn(other).size === 0) return { kind: 'eq', ...k, sql };
    if (RANGE_OPS.has(op) && aliasesIn(other).size === 0) return { kind: 'range', ...k, sql };
  }
  return undefined;
}
