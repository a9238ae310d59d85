import type { ColumnInfo, TableInfo } from '../../introspection/schema-snapshot';

/** A column as introspection gives it, integer and NOT NULL unless `overrides` say otherwise (tests). */
export const testColumn = (name: string, overrides: Partial<ColumnInfo> = {}): ColumnInfo => ({
  name,
  ordinal: 1,
  data_type: 'integer',
  udt_name: 'int4',
  nullable: false,
  default: null,
  identity: null,
  generated: null,
  comment: null,
  ...overrides,
});

/** A plain table of `public` keyed by `id` unless `overrides` say otherwise (tests). */
export const testTable = (name: string, columns: ColumnInfo[], overrides: Partial<TableInfo> = {}): TableInfo => ({
  schema: 'public',
  name,
  kind: 'table',
  columns,
  primary_key: ['id'],
  constraints: [],
  foreign_keys: [],
  indexes: [],
  row_estimate: 1,
  pages: 1,
  total_bytes: 1,
  comment: null,
  partition_of: null,
  partition_bound: null,
  partition_key: null,
  view_definition: null,
  ...overrides,
});
