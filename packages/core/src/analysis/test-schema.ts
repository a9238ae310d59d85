import { buildSnapshot } from './snapshot-builder';
import type { SchemaSnapshot } from '../introspection/schema-snapshot';

/**
 * The shop schema the analysis unit tests share: customers <- orders <- order_items -> products,
 * orders <- shipments (ON DELETE CASCADE chain customers -> orders -> order_items), a large
 * events table, an enum and a view reading customers.email.
 */
export function shopSnapshot(): SchemaSnapshot {
  return buildSnapshot(
    [
      {
        name: 'customers',
        columns: ['id bigint not null', 'email text not null', 'name character varying(100)', 'created_at timestamp with time zone not null default now()'],
        primaryKey: ['id'],
        unique: [['email']],
        rows: 50_000,
      },
      {
        name: 'products',
        columns: ['id bigint not null', 'sku text not null', 'price numeric(10,2) not null'],
        primaryKey: ['id'],
        checks: [{ name: 'products_price_check', definition: 'CHECK ((price >= (0)::numeric))', columns: ['price'] }],
        rows: 2_000,
      },
      {
        name: 'orders',
        columns: ['id bigint not null', 'customer_id bigint not null', 'status public.order_status not null', 'total numeric(12,2)'],
        primaryKey: ['id'],
        foreignKeys: [{ columns: ['customer_id'], references: 'customers', onDelete: 'cascade' }],
        indexes: [['customer_id']],
        rows: 2_000_000,
        bytes: 400 * 2 ** 20,
      },
      {
        name: 'order_items',
        columns: ['id bigint not null', 'order_id bigint not null', 'product_id bigint not null', 'quantity integer not null'],
        primaryKey: ['id'],
        foreignKeys: [
          { columns: ['order_id'], references: 'orders', onDelete: 'cascade' },
          { columns: ['product_id'], references: 'products' },
        ],
        rows: 6_000_000,
        bytes: 2 * 2 ** 30,
      },
      {
        name: 'shipments',
        columns: ['id bigint not null', 'order_id bigint', 'carrier text'],
        primaryKey: ['id'],
        foreignKeys: [{ columns: ['order_id'], references: 'orders', onDelete: 'set_null' }],
        rows: 1_000,
      },
      {
        name: 'events',
        columns: ['id bigint not null', 'payload jsonb', 'created_at timestamp with time zone'],
        primaryKey: ['id'],
        rows: 30_000_000,
        bytes: 12 * 2 ** 30,
      },
    ],
    {
      enums: [{ schema: 'public', name: 'order_status', values: ['pending', 'paid', 'shipped'] }],
      views: [{ name: 'customer_emails', definition: ' SELECT customers.id, customers.email FROM customers;' }],
      view_dependencies: [{ view: 'public.customer_emails', table: 'public.customers', columns: ['id', 'email'] }],
    },
  );
}

/**
 * The shop schema as a managed database's introspection sees it: every object in `schema`, the
 * role's search_path set to it, and the definitions rendered under that path (PostgreSQL leaves
 * visible names unqualified: `REFERENCES customers(id)`, `status order_status`).
 */
export function tenantShopSnapshot(schema = 'tenant_x'): SchemaSnapshot {
  const s = shopSnapshot();
  const local = (text: string): string => text.replace(/\bpublic\./g, '');
  return {
    ...s,
    schemas: [schema],
    search_path: [schema],
    tables: s.tables.map((t) => ({
      ...t,
      schema,
      columns: t.columns.map((c) => ({ ...c, data_type: local(c.data_type) })),
      foreign_keys: t.foreign_keys.map((fk) => ({ ...fk, referenced_schema: schema, definition: local(fk.definition) })),
      indexes: t.indexes.map((ix) => ({ ...ix, definition: ix.definition.replace(/ ON public\./, ` ON ${schema}.`) })),
    })),
    enums: s.enums.map((e) => ({ ...e, schema })),
    view_dependencies: s.view_dependencies.map((d) => ({
      view: d.view.replace('public.', `${schema}.`),
      table: d.table.replace('public.', `${schema}.`),
      columns: d.columns,
    })),
  };
}
