import { type AstNode, names, nodeBody, nodeKind, rangeVarName } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { SchemaIndex } from '../schema-index';
import type { StatementFacts } from '../statement-facts';
import type { ColumnInfo } from '../../introspection/schema-snapshot';
import { deparse } from '../../pg/deparse';
import { type Absorption, findAbsorptions } from './absorption';
import { inputArgTypes, routineName } from './routine-match';

/**
 * What the undo of one statement needs to know about the rest of the migration: the snapshot
 * says what existed before the migration, this says what earlier statements created and what
 * later ones took over.
 */
export interface RollbackContext {
  absorption: Absorption;
  /** Key columns of indexes the migration creates, by `schema.name`. */
  indexColumns: Map<string, string[]>;
  /** CREATE OR REPLACE of a routine an earlier statement created: that statement's text, as OR REPLACE. */
  routineBefore: Map<number, string>;
  /** Whether an earlier statement creates the object a COMMENT statement names (matched by bare name). */
  createdEarlier(stmtIndex: number, comment: AstNode): boolean;
  /**
   * The column `column` (its name at that point) of `table` as it was just before statement
   * `stmtIndex`: the snapshot's column followed through the migration's earlier renames, type,
   * default and NOT NULL changes, or a column an earlier statement added. Undefined when unknown.
   */
  columnBefore(stmtIndex: number, table: string, column: string): ColumnInfo | undefined;
  /** The constraint `name` of `table` as an earlier statement of the migration added it (`CONSTRAINT name ...`), if one did. */
  constraintAddedEarlier(stmtIndex: number, table: string, name: string): string | undefined;
}

export const NO_CONTEXT: RollbackContext = {
  absorption: { absorbed: new Map(), recreate: new Map(), attachUndoneBy: new Map() },
  indexColumns: new Map(),
  routineBefore: new Map(),
  createdEarlier: () => false,
  columnBefore: () => undefined,
  constraintAddedEarlier: () => undefined,
};

/** The DEFAULT and NOT NULL a ColumnDef declares. */
function columnDefParts(def: AstNode): { default: string | null; notNull: boolean } {
  let dflt: string | null = null;
  let notNull = false;
  for (const c of (def.constraints ?? []) as AstNode[]) {
    const con = c.Constraint as AstNode | undefined;
    if (con?.contype === 'CONSTR_DEFAULT' && con.raw_expr) dflt = deparse(con.raw_expr);
    if (con?.contype === 'CONSTR_NOTNULL' || con?.contype === 'CONSTR_PRIMARY') notNull = true;
  }
  return { default: dflt, notNull };
}

/**
 * Follows the columns the migration touches, statement by statement: for each ALTER TABLE or
 * column rename, the columns of its table as they were just before it (keyed `index|table`).
 */
function columnLineage(parsed: readonly ParsedStatement[], facts: readonly StatementFacts[], schema: SchemaIndex): Map<string, Map<string, ColumnInfo>> {
  const current = new Map<string, Map<string, ColumnInfo>>();
  const before = new Map<string, Map<string, ColumnInfo>>();
  const columnsOf = (table: string): Map<string, ColumnInfo> => {
    let m = current.get(table);
    if (!m) current.set(table, (m = new Map((schema.table(table)?.columns ?? []).map((c) => [c.name, c]))));
    return m;
  };
  for (const p of parsed) {
    const kind = nodeKind(p.stmt);
    const b = nodeBody(p.stmt);
    if (kind === 'RenameStmt' && b.renameType === 'OBJECT_COLUMN') {
      const table = rangeVarName(b.relation);
      const cols = columnsOf(table);
      before.set(`${p.index}|${table}`, new Map(cols));
      const c = cols.get(String(b.subname));
      cols.delete(String(b.subname));
      if (c) cols.set(String(b.newname), { ...c, name: String(b.newname) });
      continue;
    }
    if (kind !== 'AlterTableStmt' || b.objtype !== 'OBJECT_TABLE') continue;
    const table = facts[p.index]?.table ?? rangeVarName(b.relation);
    const cols = columnsOf(table);
    before.set(`${p.index}|${table}`, new Map(cols));
    for (const cmd of facts[p.index]?.subcommands ?? []) {
      const name = String(cmd.name ?? '');
      const c = cols.get(name);
      switch (cmd.subtype as string) {
        case 'AT_AddColumn': {
          const def = cmd.def?.ColumnDef as AstNode | undefined;
          const col = String(def?.colname ?? '');
          if (!def || (cmd.missing_ok && cols.has(col))) break;
          const parts = columnDefParts(def);
          cols.set(col, {
            name: col,
            ordinal: cols.size + 1,
            data_type: deparse({ TypeName: def.typeName }),
            udt_name: names(def.typeName?.names).pop() ?? '',
            nullable: !parts.notNull,
            default: parts.default,
            identity: null,
            generated: null,
            comment: null,
          });
          break;
        }
        case 'AT_DropColumn':
          cols.delete(name);
          break;
        case 'AT_ColumnDefault':
          if (c) cols.set(name, { ...c, default: cmd.def ? deparse(cmd.def) : null });
          break;
        case 'AT_AlterColumnType':
          if (c && cmd.def?.ColumnDef?.typeName) cols.set(name, { ...c, data_type: deparse({ TypeName: cmd.def.ColumnDef.typeName }) });
          break;
        case 'AT_SetNotNull':
          if (c) cols.set(name, { ...c, nullable: false });
          break;
        case 'AT_DropNotNull':
          if (c) cols.set(name, { ...c, nullable: true });
          break;
      }
    }
  }
  return before;
}

/** Bare name of what a statement creates, or null. */
function createdName(p: ParsedStatement): string | null {
  const b = nodeBody(p.stmt);
  switch (nodeKind(p.stmt)) {
    case 'CreateStmt':
    case 'CreateTableAsStmt':
      return String((b.relation ?? b.into?.rel)?.relname ?? '') || null;
    case 'ViewStmt':
      return String(b.view?.relname ?? '') || null;
    case 'IndexStmt':
      return b.idxname ? String(b.idxname) : null;
    case 'CreateFunctionStmt':
      return names(b.funcname).pop() ?? null;
    case 'CreateTrigStmt':
      return String(b.trigname);
    case 'CreateEnumStmt':
      return names(b.typeName).pop() ?? null;
    case 'CreateDomainStmt':
      return names(b.domainname).pop() ?? null;
    case 'CompositeTypeStmt':
      return String(b.typevar?.relname ?? '') || null;
    case 'CreateSchemaStmt':
      return String(b.schemaname);
    case 'CreateSeqStmt':
      return String(b.sequence?.relname ?? '') || null;
    default:
      return null;
  }
}

/** Bare name of the object a COMMENT statement names (the table for a column). */
function commentedName(b: AstNode): string | null {
  const obj = b.object as AstNode | undefined;
  if (obj?.List) {
    const parts = names(obj.List.items);
    return String(b.objtype) === 'OBJECT_COLUMN' ? (parts[parts.length - 2] ?? null) : (parts.pop() ?? null);
  }
  if (obj?.ObjectWithArgs) return names(obj.ObjectWithArgs.objname).pop() ?? null;
  if (obj?.TypeName) return names(obj.TypeName.names).pop() ?? null;
  if (obj?.String) return String(obj.String.sval);
  return null;
}

export function rollbackContext(parsed: readonly ParsedStatement[], facts: readonly StatementFacts[], schema: SchemaIndex): RollbackContext {
  const indexColumns = new Map<string, string[]>();
  const routineBefore = new Map<number, string>();
  const routines = new Map<string, string>();
  const created = new Map<string, number>();
  for (const p of parsed) {
    const b = nodeBody(p.stmt);
    const kind = nodeKind(p.stmt);
    if (kind === 'IndexStmt' && b.idxname) {
      const cols = ((b.indexParams ?? []) as AstNode[]).map((e) => e.IndexElem?.name).filter((n): n is string => typeof n === 'string');
      indexColumns.set(`${rangeVarName(b.relation).split('.')[0]}.${b.idxname}`, cols);
    }
    if (kind === 'CreateFunctionStmt') {
      const { schema: s, name } = routineName(b.funcname as AstNode[], schema);
      const key = `${s}.${name}(${inputArgTypes(b)
        .map((tn) => deparse({ TypeName: tn }))
        .join(',')})`;
      const first = routines.get(key);
      if (first !== undefined) routineBefore.set(p.index, first);
      else routines.set(key, p.sql.replace(/^((?:\s*--[^\n]*\n)*\s*)CREATE\s+(?:OR\s+REPLACE\s+)?/i, '$1CREATE OR REPLACE '));
    }
    const n = createdName(p);
    if (n && !created.has(n)) created.set(n, p.index);
  }
  const lineage = columnLineage(parsed, facts, schema);
  const addedConstraints: Array<{ index: number; key: string; def: string }> = [];
  for (const p of parsed) {
    if (nodeKind(p.stmt) !== 'AlterTableStmt') continue;
    for (const cmd of facts[p.index]?.subcommands ?? []) {
      const con = cmd.subtype === 'AT_AddConstraint' ? (cmd.def?.Constraint as AstNode | undefined) : undefined;
      if (con?.conname) addedConstraints.push({ index: p.index, key: `${facts[p.index]!.table}|${String(con.conname)}`, def: deparse(cmd.def) });
    }
  }
  return {
    absorption: findAbsorptions(parsed, facts, schema),
    columnBefore: (stmtIndex, table, column) => lineage.get(`${stmtIndex}|${table}`)?.get(column),
    constraintAddedEarlier: (stmtIndex, table, name) => addedConstraints.filter((c) => c.index < stmtIndex && c.key === `${table}|${name}`).pop()?.def,
    indexColumns,
    routineBefore,
    createdEarlier(stmtIndex, comment) {
      const n = commentedName(comment);
      const at = n ? created.get(n) : undefined;
      return at !== undefined && at < stmtIndex;
    },
  };
}
