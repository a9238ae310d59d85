import type { SchemaModel } from './schema-model/schema-model';

/**
 * The schema snapshot model every analysis reads (migration analysis, optimization, text-to-SQL,
 * context queries). Produced by introspection and stored as JSON per snapshot. Names are
 * unquoted identifiers; `schema` is the namespace ("public" for most tables).
 */
export interface SchemaSnapshot {
  /**
   * Content version: absent in snapshots before the schema model (version 1), `SNAPSHOT_VERSION`
   * (`schema-model/schema-model.ts`) since. Older stored snapshots still load; `ensureSnapshot`
   * re-introspects them when an analysis needs the latest.
   */
  snapshot_version?: number;
  snapshot_id: string;
  connection_id: string;
  introspected_at: string;
  /** `SHOW server_version`, e.g. "17.6". */
  server_version: string;
  /** `server_version_num`, e.g. 170006. */
  server_version_num: number;
  extensions: ExtensionInfo[];
  /** Non-system schemas that were introspected. */
  schemas: string[];
  /**
   * The introspecting session's effective search path (`current_schemas(false)`: the existing
   * schemas of its `search_path` it may use, in order, implicit pg_catalog left out), e.g.
   * `["tenant_x"]` for a managed database. Unqualified names of a migration resolve against it.
   * Absent in snapshots taken before it was recorded: those resolve to `public`.
   */
  search_path?: string[];
  /**
   * Whether the introspecting role (the one migrations run as) is a superuser. Absent in
   * snapshots taken before it was recorded: treated as not a superuser.
   */
  role_superuser?: boolean;
  /**
   * Roles of the target's cluster (not the predefined `pg_*` ones nor the bootstrap superuser),
   * names only: the embedded sandbox makes those a migration names for its run
   * (`sandbox/embedded/mirror-roles.ts`). Absent in snapshots taken before it was recorded.
   */
  role_names?: string[];
  /** Tables, partitioned tables, views, materialized views and foreign tables. */
  tables: TableInfo[];
  enums: EnumInfo[];
  sequences: SequenceInfo[];
  /** Which views (and materialized views) read which table columns. */
  view_dependencies: ViewDependency[];
  /** Everything else `schemaDdl` needs to recreate the schemas (version 2 on). */
  model?: SchemaModel;
  /**
   * Distinct values of low-cardinality, non-sensitive text columns, for text-to-SQL
   * (`column-values.ts`). Absent in older snapshots and when value sampling is off.
   */
  value_samples?: ColumnValueSample[];
}

/** The distinct values read from one column at introspection (bounded; see `column-values.ts`). */
export interface ColumnValueSample {
  schema: string;
  table: string;
  column: string;
  values: string[];
}

export type RelationKind = 'table' | 'partitioned_table' | 'view' | 'materialized_view' | 'foreign_table';

export interface TableInfo {
  schema: string;
  name: string;
  kind: RelationKind;
  columns: ColumnInfo[];
  /** Primary key columns in key order, or null. */
  primary_key: string[] | null;
  /** Primary key, unique, check and exclusion constraints (foreign keys are in `foreign_keys`). */
  constraints: ConstraintInfo[];
  foreign_keys: ForeignKeyInfo[];
  indexes: IndexInfo[];
  /** `pg_class.reltuples` (-1 when never analyzed is reported as 0). */
  row_estimate: number;
  /** `pg_class.relpages`. */
  pages: number;
  /** `pg_total_relation_size`: heap, indexes and TOAST, in bytes. */
  total_bytes: number;
  comment: string | null;
  /** `schema.name` of the partitioned parent when this is a partition. */
  partition_of: string | null;
  /** `pg_get_expr(relpartbound)` for partitions, e.g. "FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')". */
  partition_bound: string | null;
  /** Partition key (`pg_get_partkeydef`) of a partitioned table. */
  partition_key: string | null;
  /** View body (`pg_get_viewdef`) for views and materialized views. */
  view_definition: string | null;
  /** Version 2 on: `objectId` of the relation. */
  id?: string;
  /** Version 2 on: UNLOGGED tables. */
  unlogged?: boolean;
  /** Version 2 on: parents of a table created with INHERITS, in order. */
  inherits?: Array<{ schema: string; name: string }>;
  /** Version 2 on: storage parameters (`reloptions`), e.g. "fillfactor=70", "security_barrier=true". */
  options?: string[];
  /** Version 2 on: row-level security enabled / forced. */
  row_security?: boolean;
  force_row_security?: boolean;
  /** Version 2 on: `relreplident` when not the default (d): n, f or i. */
  replica_identity?: 'd' | 'n' | 'f' | 'i';
  /** Version 2 on: whether a materialized view holds data. */
  populated?: boolean;
  /** Version 2 on: created by an extension (CREATE EXTENSION recreates it). */
  from_extension?: boolean;
  /** `pg_relation_size` of the heap: 0 for a table without a single row (analyzed or not). Absent in older snapshots. */
  heap_bytes?: number;
  /** `pg_stat_user_tables.n_live_tup` (0 on a standby). Absent in older snapshots. */
  live_rows?: number;
}

export interface ColumnInfo {
  name: string;
  /** 1-based attnum order. */
  ordinal: number;
  /** `format_type(atttypid, atttypmod)`, e.g. "character varying(255)", "public.order_status". */
  data_type: string;
  /** Base type name without modifiers, e.g. "varchar", "int4", "order_status". */
  udt_name: string;
  nullable: boolean;
  /** Default expression, or null. */
  default: string | null;
  identity: 'always' | 'by_default' | null;
  generated: 'stored' | null;
  /** Expression of a generated column (then `default` is null). Added by #3; may be absent in older snapshots. */
  generation_expression?: string | null;
  comment: string | null;
  /** Version 2 on: quoted collation when it differs from the type's default. */
  collation?: string | null;
  /** Version 2 on: false for a column only inherited from a parent (not declared by the table). */
  is_local?: boolean;
  /** Version 2 on: `ALTER COLUMN ... SET STATISTICS` target, when set. */
  statistics?: number;
  /** Version 2 on: `ALTER COLUMN ... SET STORAGE`, when not the type's default. */
  storage?: 'plain' | 'external' | 'main' | 'extended';
  /** The live data's shape from `pg_stats` (a few values as text), when the column was analyzed. */
  stats?: ColumnStats;
}

/** What `pg_stats` says of a column's values, bounded (see `queries/column-stats.ts`). */
export interface ColumnStats {
  null_frac: number;
  /** Most common values, most common first. */
  common?: string[];
  /** Histogram bounds, ascending, spread over the histogram. */
  bounds?: string[];
}

export interface ConstraintInfo {
  name: string;
  type: 'primary_key' | 'unique' | 'check' | 'exclusion';
  columns: string[];
  /** `pg_get_constraintdef`, e.g. "CHECK ((amount > 0))". */
  definition: string;
  validated: boolean;
  /** Version 2 on: `objectId` of the constraint. */
  id?: string;
  /** Version 2 on: false for a constraint only inherited from a parent table. */
  is_local?: boolean;
}

export type ReferentialAction = 'no_action' | 'restrict' | 'cascade' | 'set_null' | 'set_default';

export interface ForeignKeyInfo {
  name: string;
  columns: string[];
  referenced_schema: string;
  referenced_table: string;
  referenced_columns: string[];
  on_delete: ReferentialAction;
  on_update: ReferentialAction;
  validated: boolean;
  /** `pg_get_constraintdef`. */
  definition: string;
  /** Version 2 on: `objectId` of the constraint. */
  id?: string;
}

export interface IndexInfo {
  name: string;
  /** `pg_get_indexdef`. */
  definition: string;
  /** Key columns in order; expressions appear as their text. */
  columns: string[];
  is_unique: boolean;
  is_primary: boolean;
  /** False for an index left INVALID by a failed CREATE INDEX CONCURRENTLY. */
  is_valid: boolean;
  /** Access method: btree, hash, gin, gist, brin, hnsw... */
  method: string;
  /** Partial index predicate, or null. */
  predicate: string | null;
  size_bytes: number;
  /** Version 2 on: `objectId` of the index. */
  id?: string;
  /** Version 2 on: the partitioned index this partition's index is attached to. */
  parent?: { schema: string; name: string } | null;
  /** Version 2 on: name of the constraint the index backs (primary key, unique, exclusion), or null. */
  constraint?: string | null;
  /** Version 2 on: the table is clustered on this index. */
  clustered?: boolean;
  /** Version 2 on: the replica identity index. */
  replica_identity?: boolean;
}

export interface EnumInfo {
  schema: string;
  name: string;
  values: string[];
  /** Version 2 on: `objectId` of the type. */
  id?: string;
}

export interface SequenceInfo {
  schema: string;
  name: string;
  data_type: string;
  /** `schema.table.column` that owns it (serial/identity), or null. */
  owned_by: string | null;
  /** Version 2 on: the owning column, unambiguous where names hold dots. */
  owner?: { schema: string; table: string; column: string; identity: boolean } | null;
  /** Version 2 on: `objectId` and parameters. */
  id?: string;
  start?: string;
  increment?: string;
  min?: string;
  max?: string;
  cache?: string;
  cycle?: boolean;
}

export interface ExtensionInfo {
  name: string;
  version: string;
  schema: string;
  /** Version 2 on: `objectId` of the extension. */
  id?: string;
}

export interface ViewDependency {
  /** `schema.name` of the view or materialized view. */
  view: string;
  /** `schema.name` of the table it reads. */
  table: string;
  columns: string[];
}

/** `schema.name`, the key used across analyses. */
export const qualifiedName = (t: { schema: string; name: string }): string => `${t.schema}.${t.name}`;
