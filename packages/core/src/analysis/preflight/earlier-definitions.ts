import { type AstNode, names, nodeBody, nodeKind, walk } from '../ast';
import type { ParsedStatement } from '../parse-statements';

/**
 * Objects are compared by kind and bare name (`function:is_valid`, `type:mood`,
 * `relation:orders`): a statement's text may name them unqualified, and a false match only makes
 * the preflight leave one question to the sandbox.
 */
type ObjectKey = string;

const last = (parts: string[]): string => parts[parts.length - 1] ?? '';

const OBJECT_KIND: Record<string, 'function' | 'type' | 'relation'> = {
  OBJECT_FUNCTION: 'function',
  OBJECT_PROCEDURE: 'function',
  OBJECT_ROUTINE: 'function',
  OBJECT_AGGREGATE: 'function',
  OBJECT_TYPE: 'type',
  OBJECT_DOMAIN: 'type',
  OBJECT_TABLE: 'relation',
  OBJECT_VIEW: 'relation',
  OBJECT_MATVIEW: 'relation',
  OBJECT_FOREIGN_TABLE: 'relation',
  OBJECT_SEQUENCE: 'relation',
};

/** The bare name of an object in a DROP / RENAME / SET SCHEMA object slot (names list, TypeName or ObjectWithArgs). */
function objectName(o: AstNode | undefined): string {
  if (!o) return '';
  if (o.List) return last(names(o.List.items));
  if (o.TypeName) return last(names(o.TypeName.names));
  if (o.ObjectWithArgs) return last(names(o.ObjectWithArgs.objname));
  if (o.String) return String(o.String.sval ?? '');
  return '';
}

/**
 * What a statement defines or redefines, so the live catalog no longer describes it after that
 * statement: functions created, replaced or altered; types and domains created or altered (an
 * enum value added, a domain constraint); relations created, renamed or dropped; anything
 * renamed, dropped or moved to another schema. (Tables' own column and constraint changes are
 * the runner's `changedEarlier` questions.)
 */
export function definedObjects(stmt: ParsedStatement): ObjectKey[] {
  const kind = nodeKind(stmt.stmt);
  const b = nodeBody(stmt.stmt);
  switch (kind) {
    case 'CreateFunctionStmt':
      return [`function:${last(names(b.funcname))}`];
    case 'AlterFunctionStmt':
      return [`function:${objectName({ ObjectWithArgs: b.func })}`];
    case 'CreateEnumStmt':
    case 'CreateRangeStmt':
    case 'AlterEnumStmt':
    case 'AlterDomainStmt':
      return [`type:${last(names(b.typeName))}`];
    case 'CreateDomainStmt':
      return [`type:${last(names(b.domainname))}`];
    case 'CompositeTypeStmt':
      return [`type:${String(b.typevar?.relname ?? '')}`];
    case 'DefineStmt':
      if (b.kind === 'OBJECT_TYPE') return [`type:${last(names(b.defnames))}`];
      if (b.kind === 'OBJECT_AGGREGATE') return [`function:${last(names(b.defnames))}`];
      return [];
    case 'CreateStmt':
    case 'ViewStmt':
      return [`relation:${String((kind === 'CreateStmt' ? b.relation : b.view)?.relname ?? '')}`];
    case 'CreateTableAsStmt':
      return [`relation:${String(b.into?.rel?.relname ?? '')}`];
    case 'AlterTableStmt':
      // ALTER TYPE composite ADD/DROP/ALTER ATTRIBUTE is an ALTER TABLE on the type.
      return b.objtype === 'OBJECT_TYPE' ? [`type:${String(b.relation?.relname ?? '')}`] : [];
    case 'RenameStmt': {
      const k = OBJECT_KIND[String(b.renameType)];
      if (!k) return [];
      const old = k === 'relation' ? String(b.relation?.relname ?? '') : objectName(b.object);
      return [`${k}:${old}`, `${k}:${String(b.newname ?? '')}`];
    }
    case 'AlterObjectSchemaStmt': {
      const k = OBJECT_KIND[String(b.objectType)];
      if (!k) return [];
      return [`${k}:${k === 'relation' ? String(b.relation?.relname ?? '') : objectName(b.object)}`];
    }
    case 'DropStmt': {
      const k = OBJECT_KIND[String(b.removeType)];
      return k ? ((b.objects ?? []) as AstNode[]).map((o) => `${k}:${objectName(o)}`) : [];
    }
    default:
      return [];
  }
}

/** What a statement's text relies on: the functions it calls, the types it names (not pg_catalog's), the relations it reads. */
export function reliedObjects(stmt: ParsedStatement): ObjectKey[] {
  const out = new Set<ObjectKey>();
  // Type names and range vars sit wrapped in lists and bare in fields (a column's `typeName`, a
  // cast's, a statement's `relation`, a foreign key's `pktable`).
  const type = (tn: AstNode | undefined): void => {
    const parts = names(tn?.names);
    if (parts.length && parts[0] !== 'pg_catalog') out.add(`type:${last(parts)}`);
  };
  const relation = (rv: AstNode | undefined): void => {
    if (rv?.relname) out.add(`relation:${String(rv.relname)}`);
  };
  walk(stmt.stmt, (n) => {
    if (n.FuncCall) out.add(`function:${last(names(n.FuncCall.funcname))}`);
    type(n.TypeName);
    type(n.typeName);
    relation(n.RangeVar);
    relation(n.relation);
    relation(n.pktable);
  });
  return [...out];
}

const KIND_WORD: Record<string, string> = { function: 'function', type: 'type', relation: 'relation' };

/**
 * For each object, the first statement that defines it ({@link definedObjects}); ask
 * {@link definedBefore} whether an object a later statement relies on was among them.
 */
export function firstDefinitions(parsed: readonly ParsedStatement[]): Map<ObjectKey, number> {
  const first = new Map<ObjectKey, number>();
  for (const s of parsed) for (const key of definedObjects(s)) if (!first.has(key)) first.set(key, s.index);
  return first;
}

/** Why the live catalog cannot answer for statement `stmt`: an object it relies on is defined by an earlier statement; or null. */
export function definedBefore(stmt: ParsedStatement, first: ReadonlyMap<ObjectKey, number>): string | null {
  for (const key of reliedObjects(stmt)) {
    const at = first.get(key);
    if (at === undefined || at >= stmt.index) continue;
    const colon = key.indexOf(':');
    return `statement ${at} creates or changes the ${KIND_WORD[key.slice(0, colon)]} ${key.slice(colon + 1)} it relies on, which the live catalog does not have yet`;
  }
  return null;
}
