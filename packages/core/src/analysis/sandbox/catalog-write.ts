import { type AstNode, names, nodeBody, nodeKind } from '../ast';

/**
 * The pg_index flags a migration may switch off and on around a bulk update (`indisready`: the
 * index is maintained; `indisvalid`: the planner may use it). Both only change which indexes
 * PostgreSQL keeps up to date or reads, and REINDEX sets them back.
 */
export type IndexFlag = 'indisready' | 'indisvalid';
const INDEX_FLAGS: ReadonlySet<string> = new Set<IndexFlag>(['indisready', 'indisvalid']);

/** How the statement names the table whose indexes it flags. */
export type FlaggedRelation =
  /** `indrelid = 'name'::regclass` (also `indexrelid`: one index). */
  | { regclass: string }
  /** `indrelid = (SELECT oid FROM pg_class WHERE relname = 'name')`. */
  | { relname: string };

/**
 * What a statement that writes a system catalog means for the sandbox:
 * - `none`: it writes no system catalog; it runs as any statement.
 * - `index_flags`: the one catalog write the sandbox replays (see docs/migration-analysis.md,
 *   "Catalog writes"): `UPDATE pg_index SET <flag> = <constant>, ... WHERE <indrelid|indexrelid> = <relation>`.
 * - `refused`: any other write to a system catalog.
 */
export type CatalogWrite =
  | { kind: 'none' }
  | { kind: 'index_flags'; catalog: string; set: { column: IndexFlag; value: boolean }[]; by: 'indrelid' | 'indexrelid'; relation: FlaggedRelation }
  | { kind: 'refused'; catalog: string };

const DML: Record<string, string> = { UpdateStmt: 'UPDATE', InsertStmt: 'INSERT', DeleteStmt: 'DELETE', MergeStmt: 'MERGE' };

/**
 * The system catalog a RangeVar names, or null: schema `pg_catalog`, or no schema and a `pg_`
 * name that is not one of the user's own tables (`userTables`, `schema.name`; an unqualified name
 * is looked up in pg_catalog first, so only a user table of that name in the path could shadow
 * a catalog that does not exist).
 */
function catalogOf(rv: AstNode | undefined, userTables: ReadonlySet<string>, searchPath: readonly string[]): string | null {
  const name = String(rv?.relname ?? '');
  if (rv?.schemaname === 'pg_catalog') return `pg_catalog.${name}`;
  if (rv?.schemaname || !name.startsWith('pg_')) return null;
  if (searchPath.some((s) => userTables.has(`${s}.${name}`))) return null;
  return `pg_catalog.${name}`;
}

/** A boolean written as a constant: `true`, `FALSE`, `'t'::boolean`. */
function booleanConstant(n: AstNode | undefined): boolean | undefined {
  if (nodeKind(n) === 'A_Const') {
    const c = nodeBody(n);
    if (c.boolval !== undefined) return c.boolval.boolval === true;
    return undefined;
  }
  if (nodeKind(n) === 'TypeCast') {
    const tc = nodeBody(n);
    const type = names(tc.typeName?.names).filter((x) => x !== 'pg_catalog');
    const text = nodeBody(tc.arg).sval?.sval;
    if (type.length === 1 && (type[0] === 'bool' || type[0] === 'boolean') && typeof text === 'string') {
      const t = text.trim().toLowerCase();
      if (['t', 'true', 'y', 'yes', 'on', '1'].includes(t)) return true;
      if (['f', 'false', 'n', 'no', 'off', '0'].includes(t)) return false;
    }
  }
  return undefined;
}

const columnName = (n: AstNode | undefined): string | undefined => {
  if (nodeKind(n) !== 'ColumnRef') return undefined;
  const f = names(nodeBody(n).fields);
  return f.length === 1 ? f[0] : undefined;
};

const stringConstant = (n: AstNode | undefined): string | undefined => {
  const s = nodeKind(n) === 'A_Const' ? nodeBody(n).sval?.sval : undefined;
  return typeof s === 'string' ? s : undefined;
};

const isEquals = (e: AstNode): boolean => e.kind === 'AEXPR_OP' && names(e.name).join('.') === '=';

/** `'name'::regclass`, or `(SELECT oid FROM pg_class WHERE relname = 'name')`. */
function relationOf(n: AstNode | undefined): FlaggedRelation | undefined {
  if (nodeKind(n) === 'TypeCast') {
    const tc = nodeBody(n);
    const type = names(tc.typeName?.names).filter((x) => x !== 'pg_catalog');
    const text = stringConstant(tc.arg);
    if (type.length === 1 && type[0] === 'regclass' && text !== undefined) return { regclass: text };
    return undefined;
  }
  if (nodeKind(n) !== 'SubLink') return undefined;
  const link = nodeBody(n);
  if (link.subLinkType !== 'EXPR_SUBLINK' || nodeKind(link.subselect) !== 'SelectStmt') return undefined;
  const sel = nodeBody(link.subselect);
  const allowed = new Set(['targetList', 'fromClause', 'whereClause', 'limitOption', 'op']);
  if (Object.keys(sel).some((k) => !allowed.has(k)) || sel.op !== 'SETOP_NONE') return undefined;
  const target = sel.targetList as AstNode[] | undefined;
  const from = sel.fromClause as AstNode[] | undefined;
  if (target?.length !== 1 || columnName(nodeBody(target[0]).val) !== 'oid' || from?.length !== 1 || nodeKind(from[0]) !== 'RangeVar') return undefined;
  const rv = nodeBody(from[0]);
  if (rv.relname !== 'pg_class' || (rv.schemaname && rv.schemaname !== 'pg_catalog') || rv.alias) return undefined;
  const where = nodeBody(sel.whereClause);
  if (nodeKind(sel.whereClause) !== 'A_Expr' || !isEquals(where) || columnName(where.lexpr) !== 'relname') return undefined;
  const relname = stringConstant(where.rexpr);
  return relname === undefined ? undefined : { relname };
}

/**
 * Reads what a statement writes to a system catalog, from its parse tree alone. Only the exact
 * shape of {@link CatalogWrite}'s `index_flags` is recognised; anything more (a FROM list,
 * RETURNING, WITH, a function call, another column or catalog) is `refused`.
 */
export function catalogWrite(stmt: AstNode, userTables: ReadonlySet<string>, searchPath: readonly string[]): CatalogWrite {
  const kind = nodeKind(stmt);
  if (!DML[kind]) return { kind: 'none' };
  const body = nodeBody(stmt);
  const catalog = catalogOf(body.relation, userTables, searchPath);
  if (!catalog) return { kind: 'none' };
  const refused = { kind: 'refused' as const, catalog };
  if (kind !== 'UpdateStmt' || catalog !== 'pg_catalog.pg_index' || body.fromClause?.length || body.returningList?.length || body.withClause) return refused;
  if (body.relation.alias) return refused;
  const set: { column: IndexFlag; value: boolean }[] = [];
  for (const t of (body.targetList ?? []) as AstNode[]) {
    const rt = nodeBody(t);
    const value = booleanConstant(rt.val);
    if (!INDEX_FLAGS.has(String(rt.name)) || rt.indirection?.length || value === undefined) return refused;
    set.push({ column: rt.name as IndexFlag, value });
  }
  const where = nodeBody(body.whereClause);
  if (!set.length || nodeKind(body.whereClause) !== 'A_Expr' || !isEquals(where)) return refused;
  const by = columnName(where.lexpr);
  const relation = relationOf(where.rexpr);
  if ((by !== 'indrelid' && by !== 'indexrelid') || !relation) return refused;
  return { kind: 'index_flags', catalog, set, by, relation };
}

/**
 * PostgreSQL's refusal, on a target whose role is not a superuser, of a statement that writes a
 * system catalog; null when the target accepts it or it writes none. For engines whose own role
 * is a superuser (PGlite), which would otherwise accept what the target refuses.
 */
export function targetRefusesCatalogWrite(write: CatalogWrite, targetSuperuser: boolean): string | null {
  if (write.kind === 'none' || targetSuperuser) return null;
  return `permission denied for table ${write.catalog.replace(/^pg_catalog\./, '')} (the target's role is not a superuser, and only a superuser may write a system catalog)`;
}
