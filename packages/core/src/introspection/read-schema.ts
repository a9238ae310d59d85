import { columnsQuery, type ColumnRow } from './queries/columns';
import { constraintsQuery, type ConstraintRow } from './queries/constraints';
import { enumsQuery, type EnumRow } from './queries/enums';
import { extensionsQuery, type ExtensionRow } from './queries/extensions';
import { foreignKeysQuery, type ForeignKeyRow } from './queries/foreign-keys';
import { indexesQuery, type IndexRow } from './queries/indexes';
import { relationSizesQuery, type RelationSizeRow } from './queries/relation-sizes';
import { columnStatsQuery, type ColumnStatsRow } from './queries/column-stats';
import { tableActivityQuery, type TableActivityRow } from './queries/table-activity';
import { schemasQuery, type SchemaRow } from './queries/schemas';
import { sequencesQuery, type SequenceRow } from './queries/sequences';
import { serverInfoQuery, type ServerInfoRow } from './queries/server-info';
import { tablesQuery, type TableRow } from './queries/tables';
import { viewDependenciesQuery, type ViewDependencyRow } from './queries/view-dependencies';
import { commentsQuery } from './queries/comments';
import { compositeTypesQuery } from './queries/composite-types';
import { dependenciesQuery } from './queries/dependencies';
import { domainsQuery } from './queries/domains';
import { policiesQuery } from './queries/policies';
import { rangeTypesQuery } from './queries/range-types';
import { routinesQuery } from './queries/routines';
import { rulesQuery } from './queries/rules';
import { triggersQuery } from './queries/triggers';
import { statisticsQuery } from './queries/statistics';
import { uncapturedQuery } from './queries/uncaptured';
import { indexLinksQuery, type IndexLinkRow } from './queries/index-links';
import { assembleModel, type ModelRows } from './schema-model/assemble-model';
import { objectId, SNAPSHOT_VERSION } from './schema-model/schema-model';
import type {
  ColumnInfo,
  ConstraintInfo,
  ForeignKeyInfo,
  IndexInfo,
  ReferentialAction,
  RelationKind,
  SchemaSnapshot,
  SequenceInfo,
  TableInfo,
} from './schema-snapshot';
import { qname } from './schema-model/names';

/** The snapshot without its identity (id, connection, time), as read from the catalogs. */
export type SchemaContent = Omit<SchemaSnapshot, 'snapshot_id' | 'connection_id' | 'introspected_at'>;

/** A relation without its storage figures (indexes and total size), which are read apart. */
export type TableStructure = Omit<TableInfo, 'indexes' | 'total_bytes'>;

/** The schema without storage figures: all that table chunks are built from. */
export type SchemaStructure = Omit<SchemaContent, 'tables'> & { tables: TableStructure[] };

/**
 * The catalog reads, in two batches that can run on two connections at once. The storage batch
 * opens every table, TOAST table and index (sizes, index definitions), the costliest part in the
 * fresh backend of an introspection; the structure batch touches catalogs only, so it ends first
 * and the table chunks can be prepared while the storage batch still runs.
 */
export const STRUCTURE_QUERIES: readonly string[] = [
  serverInfoQuery(),
  extensionsQuery(),
  schemasQuery(),
  tablesQuery(),
  columnsQuery(),
  constraintsQuery(),
  foreignKeysQuery(),
  enumsQuery(),
  sequencesQuery(),
  viewDependenciesQuery(),
  // The schema model (schema-model/): what DDL needs beyond the relations.
  domainsQuery(),
  compositeTypesQuery(),
  rangeTypesQuery(),
  routinesQuery(),
  triggersQuery(),
  rulesQuery(),
  policiesQuery(),
  commentsQuery(),
  dependenciesQuery(),
  statisticsQuery(),
  uncapturedQuery(),
  indexLinksQuery(),
];
// Storage and live data: sizes, indexes, and the statistics the sandbox's synthetic rows follow.
export const STORAGE_QUERIES: readonly string[] = [relationSizesQuery(), indexesQuery(), columnStatsQuery(), tableActivityQuery()];

/** Rows of one batch, in the order of its queries. */
export type BatchRows = ReadonlyArray<readonly object[]>;

/** The structure and, for joining the storage rows, each table's oid (same order) and the index links by index oid. */
export interface StructureRead {
  structure: SchemaStructure;
  oids: readonly string[];
  indexLinks: ReadonlyMap<string, IndexLinkRow>;
}

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

const groupBy = <R extends { table_oid: number | string }, T>(rows: readonly R[], map: (r: R) => T): Map<string, T[]> => {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = String(r.table_oid);
    const list = m.get(k);
    if (list) list.push(map(r));
    else m.set(k, [map(r)]);
  }
  return m;
};

/** Text arrays come back as arrays from `pg`, and as arrays or `{a,b}` literals elsewhere. */
const textArray = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

const rowsAt = <R>(batch: BatchRows, i: number): readonly R[] => {
  const rows = batch[i];
  if (!rows) throw new Error(`catalog batch has no result ${i}`);
  return rows as readonly R[];
};

/** Assembles the rows of {@link STRUCTURE_QUERIES}. */
export function assembleStructure(batch: BatchRows): StructureRead {
  const server = rowsAt<ServerInfoRow>(batch, 0);
  const extensions = rowsAt<ExtensionRow>(batch, 1);
  const schemas = rowsAt<SchemaRow>(batch, 2);
  const tables = rowsAt<TableRow>(batch, 3);
  const colsBy = groupBy(rowsAt<ColumnRow>(batch, 4), toColumn);
  const consBy = groupBy(rowsAt<ConstraintRow>(batch, 5), (c) => c);
  const fksBy = groupBy(rowsAt<ForeignKeyRow>(batch, 6), toForeignKey);
  const enums = rowsAt<EnumRow>(batch, 7);
  const sequences = rowsAt<SequenceRow>(batch, 8);
  const deps = rowsAt<ViewDependencyRow>(batch, 9);
  const modelRows: ModelRows = {
    schemas,
    domains: rowsAt(batch, 10),
    composites: rowsAt(batch, 11),
    ranges: rowsAt(batch, 12),
    routines: rowsAt(batch, 13),
    triggers: rowsAt(batch, 14),
    rules: rowsAt(batch, 15),
    policies: rowsAt(batch, 16),
    comments: rowsAt(batch, 17),
    dependencies: rowsAt(batch, 18),
    statistics: rowsAt(batch, 19),
    uncaptured: rowsAt(batch, 20),
  };

  const indexLinks = new Map(rowsAt<IndexLinkRow>(batch, 21).map((l) => [String(l.oid), l]));
  const oids: string[] = [];
  const tableStructures: TableStructure[] = tables.map((t) => {
    const key = String(t.oid);
    oids.push(key);
    const cons = consBy.get(key) ?? [];
    const pk = cons.find((c) => c.contype === 'p');
    return {
      schema: t.schema,
      name: t.name,
      kind: KINDS[t.relkind],
      columns: colsBy.get(key) ?? [],
      primary_key: pk ? textArray(pk.columns) : null,
      constraints: cons.map((c) => ({
        name: c.name,
        type: CONSTRAINT_TYPES[c.contype],
        columns: textArray(c.columns),
        definition: c.definition,
        validated: c.validated,
        id: objectId('pg_constraint', c.oid),
        is_local: c.is_local,
      })),
      foreign_keys: fksBy.get(key) ?? [],
      // reltuples is -1 for a table never vacuumed or analyzed (PostgreSQL 14+).
      row_estimate: Math.max(0, Math.round(Number(t.reltuples))),
      pages: Number(t.relpages),
      comment: t.comment,
      partition_of: t.partition_of,
      partition_bound: t.partition_bound,
      partition_key: t.partition_key,
      view_definition: t.view_definition,
      ...tableExtras(t),
    };
  });

  const serverRow = server[0];
  return {
    oids,
    indexLinks,
    structure: {
      server_version: serverRow?.server_version ?? '',
      server_version_num: Number(serverRow?.server_version_num ?? 0),
      extensions: extensions.map((e) => ({ name: e.name, version: e.version, schema: e.schema, id: objectId('pg_extension', e.oid) })),
      schemas: schemas.map((s) => s.name),
      search_path: textArray(serverRow?.search_path),
      ...(serverRow?.is_superuser ? { role_superuser: serverRow.is_superuser === 'on' } : {}),
      ...(serverRow?.role_names ? { role_names: textArray(serverRow.role_names) } : {}),
      tables: tableStructures,
      enums: enums.map((e) => ({ schema: e.schema, name: e.name, values: textArray(e.values), id: objectId('pg_type', e.oid) })),
      sequences: sequences.map(toSequence),
      view_dependencies: deps.map((d) => ({ view: d.view, table: d.table, columns: textArray(d.columns) })),
      model: assembleModel(modelRows),
    },
  };
}

/** Columns with the shape of their live data from `pg_stats`, where ANALYZE has seen it. */
function withStats(columns: ColumnInfo[], stats: readonly ColumnStatsRow[] | undefined): ColumnInfo[] {
  if (!stats?.length) return columns;
  const by = new Map(stats.map((s) => [s.column, s]));
  return columns.map((c) => {
    const s = by.get(c.name);
    if (!s) return c;
    const common = textArray(s.common);
    const bounds = textArray(s.bounds);
    return { ...c, stats: { null_frac: Number(s.null_frac), ...(common.length ? { common } : {}), ...(bounds.length ? { bounds } : {}) } };
  });
}

/** The whole content: the structure with the rows of {@link STORAGE_QUERIES} joined in. */
export function assembleContent({ structure, oids, indexLinks }: StructureRead, storage: BatchRows): SchemaContent {
  const sizeRows = rowsAt<RelationSizeRow>(storage, 0);
  const sizes = new Map(sizeRows.map((r) => [String(r.table_oid), r.total_bytes]));
  const heaps = new Map(sizeRows.map((r) => [String(r.table_oid), r.heap_bytes]));
  // Older batches (tests that pass two results) have no statistics.
  const statsBy = groupBy(storage.length > 2 ? rowsAt<ColumnStatsRow>(storage, 2) : [], (r) => r);
  const live = new Map((storage.length > 3 ? rowsAt<TableActivityRow>(storage, 3) : []).map((r) => [String(r.table_oid), r.live_rows]));
  const idxBy = groupBy(rowsAt<IndexRow>(storage, 1), (i) => toIndex(i, indexLinks.get(String(i.oid))));
  // Built field by field so the snapshot's JSON keeps the key order of TableInfo.
  const tables: TableInfo[] = structure.tables.map((t, i) => {
    const key = oids[i]!;
    return {
      schema: t.schema,
      name: t.name,
      kind: t.kind,
      columns: withStats(t.columns, statsBy.get(key)),
      primary_key: t.primary_key,
      constraints: t.constraints,
      foreign_keys: t.foreign_keys,
      indexes: idxBy.get(key) ?? [],
      row_estimate: t.row_estimate,
      pages: t.pages,
      // Views and foreign tables have no storage (0); null when dropped meanwhile, as before.
      total_bytes: Number(sizes.get(key) ?? 0),
      comment: t.comment,
      partition_of: t.partition_of,
      partition_bound: t.partition_bound,
      partition_key: t.partition_key,
      view_definition: t.view_definition,
      ...extrasOf(t),
      ...(heaps.get(key) != null ? { heap_bytes: Number(heaps.get(key)) } : {}),
      ...(live.has(key) ? { live_rows: Number(live.get(key)) } : {}),
    };
  });
  return {
    snapshot_version: SNAPSHOT_VERSION,
    server_version: structure.server_version,
    server_version_num: structure.server_version_num,
    extensions: structure.extensions,
    schemas: structure.schemas,
    ...(structure.search_path ? { search_path: structure.search_path } : {}),
    ...(structure.role_superuser !== undefined ? { role_superuser: structure.role_superuser } : {}),
    ...(structure.role_names ? { role_names: structure.role_names } : {}),
    tables,
    enums: structure.enums,
    sequences: structure.sequences,
    view_dependencies: structure.view_dependencies,
    ...(structure.model ? { model: structure.model } : {}),
  };
}

/** The version 2 fields of a relation, for DDL (absent where they hold the default). */
function tableExtras(t: TableRow): Partial<TableInfo> {
  const x: Partial<TableInfo> = { id: objectId('pg_class', t.oid) };
  const e = t.extra;
  if (!e) return x;
  if (e.relpersistence === 'u') x.unlogged = true;
  if (e.inherits?.length) x.inherits = e.inherits;
  const options = textArray(e.reloptions);
  if (options.length) x.options = options;
  if (e.rls) x.row_security = true;
  if (e.force_rls) x.force_row_security = true;
  if (e.replident !== 'd' && (t.relkind === 'r' || t.relkind === 'p')) x.replica_identity = e.replident;
  if (t.relkind === 'm') x.populated = e.populated;
  if (e.from_extension) x.from_extension = true;
  return x;
}

const EXTRA_KEYS = ['id', 'unlogged', 'inherits', 'options', 'row_security', 'force_row_security', 'replica_identity', 'populated', 'from_extension'] as const;

/** The version 2 fields present on a structure table, in a fixed key order. */
function extrasOf(t: TableStructure): Partial<TableInfo> {
  const x: Record<string, unknown> = {};
  for (const k of EXTRA_KEYS) if (t[k] !== undefined) x[k] = t[k];
  return x as Partial<TableInfo>;
}

function toSequence(s: SequenceRow): SequenceInfo {
  return {
    schema: s.schema,
    name: s.name,
    data_type: s.data_type,
    owned_by: s.owned_by,
    owner:
      s.owner_schema !== null && s.owner_table !== null && s.owner_column !== null
        ? { schema: s.owner_schema, table: s.owner_table, column: s.owner_column, identity: s.owner_identity === true }
        : null,
    id: objectId('pg_class', s.oid),
    start: s.start,
    increment: s.increment,
    min: s.min,
    max: s.max,
    cache: s.cache,
    cycle: s.cycle,
  };
}

const STORAGE = { p: 'plain', e: 'external', m: 'main', x: 'extended' } as const;

function toColumn(c: ColumnRow): ColumnInfo {
  const col: ColumnInfo = {
    name: c.name,
    ordinal: Number(c.ordinal),
    data_type: c.data_type,
    udt_name: c.udt_name,
    nullable: !c.not_null,
    default: c.generated ? null : c.default_expr,
    identity: c.identity === 'a' ? 'always' : c.identity === 'd' ? 'by_default' : null,
    generated: c.generated === 's' ? 'stored' : null,
    generation_expression: c.generated ? c.default_expr : null,
    comment: c.comment,
  };
  // Only where they differ from the default, to keep large snapshots small.
  const e = c.extra;
  if (e?.collation_schema && e.collation_name) col.collation = qname(e.collation_schema, e.collation_name);
  if (e && !e.is_local) col.is_local = false;
  if (e?.statistics != null) col.statistics = Number(e.statistics);
  if (e?.storage) col.storage = STORAGE[e.storage];
  return col;
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
    id: objectId('pg_constraint', f.oid),
  };
}

function toIndex(i: IndexRow, link: IndexLinkRow | undefined): IndexInfo {
  return {
    name: i.name,
    definition: i.definition,
    columns: textArray(i.columns),
    is_unique: i.is_unique,
    is_primary: i.is_primary,
    is_valid: i.is_valid,
    method: i.method,
    predicate: i.predicate,
    size_bytes: Number(i.size_bytes),
    id: objectId('pg_class', i.oid),
    parent: link?.parent_schema && link.parent_name ? { schema: link.parent_schema, name: link.parent_name } : null,
    constraint: link?.constraint_name ?? null,
    clustered: link?.clustered ?? false,
    replica_identity: link?.replica_identity ?? false,
  };
}
