import type { AstNode } from './ast';
import { nodeBody, nodeKind } from './ast';
import type { ParsedStatement } from './parse-statements';
import type { SchemaIndex } from './schema-index';

/** Relation kinds of DROP whose objects are `[schema.]name` lists in the relation namespace. */
const DROPPED_RELATIONS = new Set(['OBJECT_TABLE', 'OBJECT_VIEW', 'OBJECT_MATVIEW', 'OBJECT_FOREIGN_TABLE', 'OBJECT_SEQUENCE', 'OBJECT_INDEX']);
/** RENAME kinds that rename a relation (its new name stays in its schema). */
const RENAMED_RELATIONS = new Set(['OBJECT_TABLE', 'OBJECT_VIEW', 'OBJECT_MATVIEW', 'OBJECT_FOREIGN_TABLE', 'OBJECT_SEQUENCE', 'OBJECT_INDEX']);

/** A bare RangeVar body (`relation`, `pktable`, `into.rel`...) or the body of a wrapped one. */
const isRangeVar = (o: AstNode): boolean => typeof o.relname === 'string' && o.relpersistence !== undefined;

/** Prefixes a one-part `[{String}]` name list with `schema` (in place). */
const qualifyList = (list: AstNode[] | undefined, schema: string): void => {
  if (list?.length === 1) list.unshift({ String: { sval: schema } });
};

const lastName = (list: AstNode[] | undefined): string => String(list?.[list.length - 1]?.String?.sval ?? '');

/**
 * Qualifies, in place, the unqualified relation and type names of a migration's parse trees the
 * way PostgreSQL resolves them under the snapshot's search path (a managed database's role, say,
 * has `search_path = <tenant schema>`): a reference goes to the first schema of the path holding
 * that name in the snapshot or as created (renamed, not dropped) by an earlier statement; a CREATE
 * to the first schema of the path; an index to the schema of its table. Every later step then
 * reads `schema.name` from the tree as written. The statements' SQL text is left as it is (the
 * sandbox runs it under the same search path).
 *
 * With the default path (`public` only) this returns at once: the `public` default of
 * `rangeVarName` already is the resolution. References to CTEs are qualified too; nothing reads
 * them as relations. Temporary relations stay unqualified.
 */
export function resolveNames(parsed: readonly ParsedStatement[], schema: SchemaIndex): void {
  const path = schema.searchPath;
  if (path.length === 1 && path[0] === 'public') return;
  const target = path[0]!;
  // Relations and types created (true) or dropped (false) by the statements so far.
  const relations = new Map<string, boolean>();
  const types = new Map<string, boolean>();
  const find = (name: string, seen: Map<string, boolean>, known: (q: string) => boolean): string => {
    for (let i = 0; i < path.length; i++) {
      const q = `${path[i]}.${name}`;
      if (seen.get(q) ?? known(q)) return path[i]!;
    }
    return target;
  };
  const relationSchema = (name: string): string => find(name, relations, schema.hasRelation);
  const typeSchema = (name: string): string => find(name, types, schema.hasType);
  const create = (rv: AstNode | undefined): void => {
    if (!rv || rv.relpersistence === 't') return;
    rv.schemaname ??= target;
    relations.set(`${rv.schemaname}.${rv.relname}`, true);
  };
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) {
      for (let i = 0; i < n.length; i++) visit(n[i]);
      return;
    }
    if (!n || typeof n !== 'object') return;
    const o = n as AstNode;
    if (isRangeVar(o) && o.schemaname === undefined && o.relpersistence !== 't') o.schemaname = relationSchema(o.relname as string);
    for (const k in o) {
      const v = o[k];
      if (v && typeof v === 'object') visit(v);
    }
  };

  for (const p of parsed) {
    const kind = nodeKind(p.stmt);
    const b = nodeBody(p.stmt);
    // Creation targets first: a statement may reference what it creates (a self-referencing FK).
    switch (kind) {
      case 'CreateStmt':
        create(b.relation);
        break;
      case 'ViewStmt':
        create(b.view);
        break;
      case 'CreateTableAsStmt':
        create(b.into?.rel);
        break;
      case 'CreateSeqStmt':
        create(b.sequence);
        break;
      case 'CompositeTypeStmt':
        create(b.typevar);
        if (b.typevar?.schemaname) types.set(`${b.typevar.schemaname}.${b.typevar.relname}`, true);
        break;
      case 'CreateEnumStmt':
      case 'CreateDomainStmt': {
        const list = (kind === 'CreateEnumStmt' ? b.typeName : b.domainname) as AstNode[] | undefined;
        qualifyList(list, target);
        types.set(`${list?.[0]?.String?.sval}.${lastName(list)}`, true);
        break;
      }
      case 'AlterEnumStmt':
        if (b.typeName?.length === 1) qualifyList(b.typeName, typeSchema(lastName(b.typeName)));
        break;
      case 'DropStmt':
        for (const o of (b.objects ?? []) as AstNode[]) {
          if (DROPPED_RELATIONS.has(b.removeType) && o.List) {
            const items = o.List.items as AstNode[];
            if (items.length === 1) qualifyList(items, relationSchema(lastName(items)));
            relations.set(items.map((x) => x.String?.sval).join('.'), false);
          } else if ((b.removeType === 'OBJECT_TYPE' || b.removeType === 'OBJECT_DOMAIN') && o.TypeName) {
            const list = o.TypeName.names as AstNode[];
            if (list.length === 1) qualifyList(list, typeSchema(lastName(list)));
            types.set(list.map((x) => x.String?.sval).join('.'), false);
          }
        }
        break;
    }
    visit(b);
    // What the statement leaves behind under another name.
    const rel = b.relation as AstNode | undefined;
    if (kind === 'IndexStmt' && b.idxname && rel?.schemaname) relations.set(`${rel.schemaname}.${b.idxname}`, true);
    if (kind === 'RenameStmt' && RENAMED_RELATIONS.has(b.renameType) && rel?.schemaname) {
      relations.set(`${rel.schemaname}.${rel.relname}`, false);
      relations.set(`${rel.schemaname}.${b.newname}`, true);
    }
    if (kind === 'AlterObjectSchemaStmt' && rel?.schemaname && b.newschema) {
      relations.set(`${rel.schemaname}.${rel.relname}`, false);
      relations.set(`${b.newschema}.${rel.relname}`, true);
    }
  }
}
