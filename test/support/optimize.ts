import type { OptimizationResult } from '@dbops/core/optimization';
import { sql } from './scratch-database';
import type { ApiResponse, TestRuntime } from './test-runtime';

/**
 * A small shop schema with enough rows for the planner to prefer indexes, and deliberately
 * missing indexes: orders.customer_id (a foreign key), orders.status, orders.created_at,
 * customers.email. `events.customer_id` is nullable (NOT IN must not be rewritten there).
 */
export async function seedShop(url: string, scale = 1): Promise<void> {
  const customers = 5000 * scale;
  const orders = 60000 * scale;
  await sql(
    url,
    `
    CREATE TABLE customers (
      id integer PRIMARY KEY, email text NOT NULL, name text NOT NULL, region text NOT NULL,
      vip boolean NOT NULL DEFAULT false, created_at timestamp NOT NULL, bio text
    );
    CREATE TABLE orders (
      id bigint PRIMARY KEY, customer_id integer NOT NULL REFERENCES customers(id),
      status text NOT NULL, total numeric(12,2) NOT NULL, qty integer NOT NULL,
      created_at timestamp NOT NULL, shipped_at timestamp, note text
    );
    CREATE TABLE events (id bigint PRIMARY KEY, customer_id integer, kind text NOT NULL);
    CREATE TABLE blocked (customer_id integer NOT NULL PRIMARY KEY);
    INSERT INTO customers
      SELECT g, 'user' || g || '@example.com', 'Customer ' || g, (ARRAY['north','south','east','west'])[1 + g % 4],
             g % 100 = 0, timestamp '2024-01-01' + g * interval '1 hour', repeat('x', 200)
        FROM generate_series(1, ${customers}) g;
    INSERT INTO orders
      SELECT g, 1 + (g * 7919) % ${customers},
             CASE WHEN g % 200 = 0 THEN 'pending' WHEN g % 10 = 0 THEN 'cancelled' ELSE 'shipped' END,
             (g % 1000) + 0.99, 1 + g % 5,
             timestamp '2024-01-01' + (g % 100000) * interval '5 minutes',
             CASE WHEN g % 200 = 0 THEN NULL ELSE timestamp '2024-01-02' + g * interval '5 minutes' END,
             'note ' || g
        FROM generate_series(1, ${orders}) g;
    INSERT INTO events SELECT g, CASE WHEN g % 50 = 0 THEN NULL ELSE g % ${customers} END, 'click' FROM generate_series(1, ${orders / 2}) g;
    INSERT INTO blocked SELECT g FROM generate_series(1, ${customers}, 50) g;
    ANALYZE;
  `,
  );
}

/** POST .../queries/optimize with an API key. */
export function optimize(
  t: TestRuntime,
  apiKey: string,
  connectionId: string,
  sqlText: string,
  options: { analyze?: boolean | string } = {},
): Promise<ApiResponse<OptimizationResult & { success?: boolean; error?: { code: string; message: string } }>> {
  const qs = options.analyze === undefined ? '' : `?analyze=${options.analyze}`;
  return t.request('POST', `/connections/${connectionId}/queries/optimize${qs}`, { apiKey, body: { sql: sqlText } });
}

/** Names of the plan's node types, depth first. */
export function nodeTypes(node: { node_type: string; children: Array<{ node_type: string; children: unknown[] }> }): string[] {
  return [node.node_type, ...node.children.flatMap((c) => nodeTypes(c as never))];
}
