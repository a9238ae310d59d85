import { parse } from 'libpg-query';
import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../introspection/schema-snapshot';
import { checkReferences } from './hallucination-check';
import { collectReferences } from './sql-references';

const table = (schema: string, name: string, columns: string[]): TableInfo =>
  ({ schema, name, columns: columns.map((c, i) => ({ name: c, ordinal: i + 1 })), foreign_keys: [] }) as unknown as TableInfo;

const context = [
  table('public', 'orders', ['id', 'customer_id', 'total']),
  table('public', 'customers', ['id', 'name']),
  table('sales', 'regions', ['id', 'label']),
];
const check = async (sql: string) => checkReferences(collectReferences(await parse(sql)), context);

describe('hallucination check', () => {
  it('accepts known tables and qualified columns through aliases', async () => {
    expect(await check('SELECT c.name, sum(o.total) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.name')).toEqual({
      hallucinated_tables: [],
      hallucinated_columns: [],
    });
    expect(await check('SELECT orders.id, sales.regions.label FROM orders, sales.regions')).toEqual({ hallucinated_tables: [], hallucinated_columns: [] });
  });

  it('reports unknown tables as written and unknown columns with the alias resolved', async () => {
    expect(await check('SELECT o.discount, x.y FROM orders o JOIN invoices i ON i.order_id = o.id, public.payments x')).toEqual({
      hallucinated_tables: ['invoices', 'public.payments'],
      hallucinated_columns: ['orders.discount'],
    });
  });

  it('excludes CTE names and derived tables, and checks CTE bodies', async () => {
    const r = await check('WITH big AS (SELECT o.id, o.nope FROM orders o) SELECT big.id, s.n FROM big JOIN (SELECT count(*) AS n FROM customers) s ON true');
    expect(r).toEqual({ hallucinated_tables: [], hallucinated_columns: ['orders.nope'] });
  });

  it('finds references in subqueries, HAVING and ORDER BY', async () => {
    const r = await check(
      'SELECT c.id FROM customers c WHERE c.id IN (SELECT o.customer_id FROM orders o WHERE o.status = 1) GROUP BY c.id HAVING max(c.age) > 1 ORDER BY c.rank',
    );
    expect(r.hallucinated_columns.sort()).toEqual(['customers.age', 'customers.rank', 'orders.status']);
  });

  it('does not accept a table of another schema that is not in the context', async () => {
    expect((await check('SELECT * FROM other.orders')).hallucinated_tables).toEqual(['other.orders']);
  });
});
