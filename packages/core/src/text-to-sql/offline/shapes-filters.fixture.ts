import type { ColumnInfo, TableInfo } from '../../introspection/schema-snapshot';
import { type IndexedTable, indexSchema } from './schema-index';

const col = (name: string, udt: string, ordinal: number): ColumnInfo => ({
  name,
  ordinal,
  data_type: udt,
  udt_name: udt,
  nullable: true,
  default: null,
  identity: null,
  generated: null,
  comment: null,
});

const table = (name: string, columns: ColumnInfo[], fks: Array<[string, string]> = []): TableInfo => ({
  schema: 'shop',
  name,
  kind: 'table',
  columns,
  primary_key: [columns[0]!.name],
  constraints: [],
  foreign_keys: fks.map(([column, to]) => ({
    name: `${name}_${column}_fk`,
    columns: [column],
    referenced_schema: 'shop',
    referenced_table: to,
    referenced_columns: [`${to.replace(/s$/, '')}_id`],
    on_delete: 'no_action',
    on_update: 'no_action',
    validated: true,
    definition: '',
  })),
  indexes: [],
  row_estimate: 10,
  pages: 1,
  total_bytes: 8192,
  comment: null,
  partition_of: null,
  partition_bound: null,
  partition_key: null,
  view_definition: null,
});

/** A two-table shop outside `public`, for the unit tests of the generator's parts. */
export function shopTables(): IndexedTable[] {
  return indexSchema(
    [
      table('sellers', [col('seller_id', 'int4', 1), col('shop_name', 'text', 2), col('country', 'text', 3)]),
      table(
        'products',
        [col('product_id', 'int4', 1), col('seller_id', 'int4', 2), col('name', 'text', 3), col('category', 'text', 4), col('unit_price', 'numeric', 5)],
        [['seller_id', 'sellers']],
      ),
    ],
    [],
  );
}
