import type { Queryable } from '../store/store';
import { columnsQuery, type ColumnRow } from './queries/columns';
import { constraintsQuery, type ConstraintRow } from './queries/constraints';
import { enumsQuery, type EnumRow } from './queries/enums';
import { extensionsQuery, type ExtensionRow } from './queries/extensions';
import { foreignKeysQuery, type ForeignKeyRow } from './queries/foreign-keys';
import { indexesQuery, type IndexRow } from './queries/indexes';
import { schemasQuery, type SchemaRow } from './queries/schemas';
import { sequencesQuery, type SequenceRow } from './queries/sequences';
import { serverInfoQuery, type ServerInfoRow } from './queries/server-info';
import { tablesQuery, type TableRow } from './queries/tables';
import { viewDependenciesQuery, type ViewDependencyRow } from './queries/view-dependencies';
import type { ColumnInfo, ConstraintInfo, ForeignKeyInfo, ReferentialAction, RelationKind, SchemaSnapshot, TableInfo } from './schema-snapshot';

/** The snapshot without its identity (id, connection, time), as read from the catalogs. */
export type SchemaContent = Omit<SchemaSnapshot, 'snapshot_id' | 'connection_id' | 'introspected_at'>;

const KINDS: Record<TableRow['relkind'], RelationKind> = {
  r: 'table',
  p: 'partitioned_table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
};

const ACTIONS: Record<ForeignKeyRow['on_delete'], ReferentialAction> = {
  a: 'no_action',
  r: 'restrict',
  c: 'cascade',
  n: 'set_null',
  d: 'set_default',
};

const CONSTRAINT_TYPES: Record<ConstraintRow['contype'], ConstraintInfo['type']> = {
  p: 'primary_key',
  u: 'unique',
  c: 'check',
  x: 'exclusion',
};

const groupBy = <R extends { table_oid: number | string }>(rows: readonly R[]): Map<string, R[]> => {
  const m = new Map<string, R[]>();
  for (const r of rows) {
    const k = String(r.table_oid);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
};

/** Text arrays come back as arrays from `pg`, and as arrays or `{a,b}` literals elsewhere. */
const textArray = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/**
 * Reads the whole schema with one catalog query per object kind (run on `db` in order,
 * ideally inside one REPEATABLE READ transaction so they agree) and assembles it.
 */
export async function readSchema(db: Queryable): Promise<SchemaContent> {
  // One after another: a client runs one query at a time, and `pg` deprecates queueing.
  const server = await db.query<ServerInfoRow>(serverInfoQuery());
  const extensions = await db.query<ExtensionRow>(extensionsQuery());
  const schemas = await db.query<SchemaRow>(schemasQuery());
  const tables = await db.query<TableRow>(tablesQuery());
  const columns = await db.query<ColumnRow>(columnsQuery());
  const constraints = await db.query<ConstraintRow>(constraintsQuery());
  const fks = await db.query<ForeignKeyRow>(foreignKeysQuery());
  const indexes = await db.query<IndexRow>(indexesQuery());
  const enums = await db.query<EnumRow>(enumsQuery());
  const sequences = await db.query<SequenceRow>(sequencesQuery());
  const deps = await db.query<ViewDependencyRow>(viewDependenciesQuery());
  const colsBy = groupBy(columns.rows);
  const consBy = groupBy(constraints.rows);
  const fksBy = groupBy(fks.rows);
  const idxBy = groupBy(indexes.rows);

  const tableInfos: TableInfo[] = tables.rows.map((t) => {
    const key = String(t.oid);
    const cons = consBy.get(key) ?? [];
    const pk = cons.find((c) => c.contype === 'p');
    return {
      schema: t.schema,
      name: t.name,
      kind: KINDS[t.relkind],
      columns: (colsBy.get(key) ?? []).map(toColumn),
      primary_key: pk ? textArray(pk.columns) : null,
      constraints: cons.map((c) => ({
        name: c.name,
        type: CONSTRAINT_TYPES[c.contype],
        columns: textArray(c.columns),
        definition: c.definition,
        validated: c.validated,
      })),
      foreign_keys: (fksBy.get(key) ?? []).map(toForeignKey),
      indexes: (idxBy.get(key) ?? []).map((i) => ({
        name: i.name,
        definition: i.definition,
        columns: textArray(i.columns),
        is_unique: i.is_unique,
        is_primary: i.is_primary,
        is_valid: i.is_valid,
        method: i.method,
        predicate: i.predicate,
        size_bytes: Number(i.size_bytes),
      })),
      // reltuples is -1 for a table never vacuumed or analyzed (PostgreSQL 14+).
      row_estimate: Math.max(0, Math.round(Number(t.reltuples))),
      pages: Number(t.relpages),
      total_bytes: Number(t.total_bytes),
      comment: t.comment,
      partition_of: t.partition_of,
      partition_bound: t.partition_bound,
      partition_key: t.partition_key,
      view_definition: t.view_definition,
    };
  });

  const serverRow = server.rows[0];
  return {
    server_version: serverRow?.server_version ?? '',
    server_version_num: Number(serverRow?.server_version_num ?? 0),
    extensions: extensions.rows.map((e) => ({ name: e.name, version: e.version, schema: e.schema })),
    schemas: schemas.rows.map((s) => s.name),
    tables: tableInfos,
    enums: enums.rows.map((e) => ({ schema: e.schema, name: e.name, values: textArray(e.values) })),
    sequences: sequences.rows.map((s) => ({ schema: s.schema, name: s.name, data_type: s.data_type, owned_by: s.owned_by })),
    view_dependencies: deps.rows.map((d) => ({ view: d.view, table: d.table, columns: textArray(d.columns) })),
  };
}

function toColumn(c: ColumnRow): ColumnInfo {
  const generated = c.generated === 's' ? 'stored' : null;
  return {
    name: c.name,
    ordinal: Number(c.ordinal),
    data_type: c.data_type,
    udt_name: c.udt_name,
    nullable: !c.not_null,
    default: c.generated ? null : c.default_expr,
    identity: c.identity === 'a' ? 'always' : c.identity === 'd' ? 'by_default' : null,
    generated,
    generation_expression: c.generated ? c.default_expr : null,
    comment: c.comment,
  };
}

function toForeignKey(f: ForeignKeyRow): ForeignKeyInfo {
  return {
    name: f.name,
    columns: textArray(f.columns),
    referenced_schema: f.referenced_schema,
    referenced_table: f.referenced_table,
    referenced_columns: textArray(f.referenced_columns),
    on_delete: ACTIONS[f.on_delete],
    on_update: ACTIONS[f.on_update],
    validated: f.validated,
    definition: f.definition,
  };
}
