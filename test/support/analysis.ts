import { parseStatements } from '@dbops/core/analysis';
import pg from 'pg';
import { sql } from './scratch-database';

/** The shop schema the analysis HTTP tests register: a three-level ON DELETE CASCADE chain, an enum and a view. */
export const SHOP_SCHEMA = `
CREATE TYPE order_status AS ENUM ('pending', 'paid', 'shipped');
CREATE TABLE customers (id bigint PRIMARY KEY, email text NOT NULL UNIQUE, name varchar(100), created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE products (id bigint PRIMARY KEY, sku text NOT NULL, price numeric(10,2) NOT NULL CHECK (price >= 0));
CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE, status order_status NOT NULL DEFAULT 'pending', total numeric(12,2));
CREATE INDEX orders_customer_id_idx ON orders (customer_id);
CREATE TABLE order_items (id bigint PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders(id) ON DELETE CASCADE, product_id bigint NOT NULL REFERENCES products(id), quantity integer NOT NULL);
CREATE TABLE shipments (id bigint PRIMARY KEY, order_id bigint REFERENCES orders(id) ON DELETE SET NULL, carrier text);
CREATE VIEW customer_emails AS SELECT id, email FROM customers;
INSERT INTO customers SELECT g, 'c' || g || '@example.com', 'Customer ' || g FROM generate_series(1, 200) g;
INSERT INTO products SELECT g, 'SKU' || g, g FROM generate_series(1, 50) g;
INSERT INTO orders SELECT g, 1 + g % 200, 'paid', g FROM generate_series(1, 1000) g;
INSERT INTO order_items SELECT g, 1 + g % 1000, 1 + g % 50, 1 FROM generate_series(1, 3000) g;
INSERT INTO shipments SELECT g, g, 'post' FROM generate_series(1, 500) g;
ANALYZE;
`;

/** Runs a migration or rollback script statement by statement on a real database (so CONCURRENTLY works outside transactions). */
export async function runScript(url: string, script: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const s of await parseStatements(script)) await c.query(s.sql);
  } finally {
    await c.end();
  }
}

/** A comparable description of the public schema: columns, constraints and indexes. */
export async function schemaFingerprint(url: string): Promise<unknown> {
  const columns = await sql(
    url,
    `SELECT table_name, column_name, data_type, character_maximum_length, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`,
  );
  const constraints = await sql(
    url,
    `SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def, convalidated FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
  );
  const indexes = await sql(url, `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2`);
  const tables = await sql(url, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
  return { tables, columns, constraints, indexes };
}
