/**
 * The parts of a user's schema that the relation-centred snapshot fields do not hold, so that
 * `schemaDdl` can recreate every object `pg_dump --schema-only` emits except owners and grants.
 * Stored in the snapshot as `model` (snapshot version 2). Definitions are the server's own
 * deparsed text (`pg_get_functiondef`, `pg_get_triggerdef`, `pg_get_expr`, ...), read under the
 * snapshot's `search_path`: applied under the same path they name the same objects.
 */
export interface SchemaModel {
  /** Ids of the user's schemas (`SchemaSnapshot.schemas` holds their names). */
  schemas: Array<{ id: string; name: string }>;
  /** Domains, composite types and range types (enums stay in `SchemaSnapshot.enums`). */
  types: TypeInfo[];
  /** Functions, procedures and aggregates defined in the user's schemas (not by extensions). */
  routines: RoutineInfo[];
  triggers: TriggerInfo[];
  /** Rewrite rules other than the `_RETURN` rule of a view. */
  rules: RuleInfo[];
  policies: PolicyInfo[];
  /** Extended statistics objects (CREATE STATISTICS). */
  statistics: StatisticsInfo[];
  /**
   * Objects of the user's schemas the model does not describe (operators, operator classes,
   * collations, text search configurations, ...): `schemaDdl` names them in `skipped`.
   */
  uncaptured: Array<{ kind: string; schema: string; name: string }>;
  /** Comments on objects other than relations and their columns (those are on `TableInfo`/`ColumnInfo`). */
  comments: CommentInfo[];
  /**
   * `[dependent, referenced]` object ids from `pg_depend` (see {@link objectId}), between
   * objects of the model and the snapshot's relations: the order to recreate them in.
   */
  dependencies: Array<[string, string]>;
}

/** The snapshot version whose content `schemaDdl` needs; older stored snapshots are re-introspected. */
export const SNAPSHOT_VERSION = 2;

/**
 * A catalog object's id inside one snapshot: its catalog and oid, e.g. `pg_class:16384`. Oids
 * are only meaningful within the snapshot they were read in.
 */
export const objectId = (catalog: Catalog, oid: number | string): string => `${catalog}:${oid}`;

export type Catalog =
  'pg_class' | 'pg_type' | 'pg_proc' | 'pg_constraint' | 'pg_trigger' | 'pg_rewrite' | 'pg_policy' | 'pg_namespace' | 'pg_extension' | 'pg_statistic_ext';

export type TypeInfo = DomainInfo | CompositeTypeInfo | RangeTypeInfo;

interface TypeBase {
  /** {@link objectId} of the `pg_type` row. */
  id: string;
  schema: string;
  name: string;
}

export interface DomainInfo extends TypeBase {
  kind: 'domain';
  /** `format_type` of the base type, e.g. "integer", "character varying(10)". */
  base_type: string;
  /** Quoted collation name when it differs from the base type's, else null. */
  collation: string | null;
  default: string | null;
  not_null: boolean;
  constraints: Array<{ id: string; name: string; definition: string; validated: boolean }>;
}

export interface CompositeTypeInfo extends TypeBase {
  kind: 'composite';
  attributes: Array<{ name: string; data_type: string; collation: string | null }>;
}

export interface RangeTypeInfo extends TypeBase {
  kind: 'range';
  subtype: string;
  /** Quoted operator class of the subtype, when not its default. */
  subtype_opclass: string | null;
  collation: string | null;
  /** Regproc text of the canonical and subtype_diff functions, or null. */
  canonical: string | null;
  subtype_diff: string | null;
  /** Name of the multirange type (PostgreSQL 14+), when it is not the default one. */
  multirange: string | null;
}

export interface RoutineInfo {
  id: string;
  schema: string;
  name: string;
  kind: 'function' | 'procedure' | 'aggregate' | 'window';
  /** `pg_get_function_identity_arguments`, e.g. "a integer, b text". */
  identity_arguments: string;
  /** `pg_get_functiondef` for functions and procedures; a built `CREATE AGGREGATE` for aggregates. */
  definition: string;
}

export interface TriggerInfo {
  id: string;
  /** The table or view it is on. */
  table_schema: string;
  table: string;
  name: string;
  /** `pg_get_triggerdef`. */
  definition: string;
  /** `tgenabled`: O (origin, the default), D (disabled), R (replica), A (always). */
  enabled: 'O' | 'D' | 'R' | 'A';
}

export interface RuleInfo {
  id: string;
  table_schema: string;
  table: string;
  name: string;
  /** `pg_get_ruledef`. */
  definition: string;
}

export interface PolicyInfo {
  id: string;
  table_schema: string;
  table: string;
  name: string;
  permissive: boolean;
  command: 'ALL' | 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';
  /** Role names; `public` for PUBLIC. */
  roles: string[];
  using: string | null;
  with_check: string | null;
}

export interface StatisticsInfo {
  id: string;
  schema: string;
  name: string;
  table_schema: string;
  table: string;
  /** `pg_get_statisticsobjdef`. */
  definition: string;
  /** Statistics target when set, else null. */
  target: number | null;
}

export interface CommentInfo {
  /** The commented object's id: a schema, type, routine, constraint, index, sequence, trigger, rule or policy of the snapshot. */
  id: string;
  comment: string;
}
