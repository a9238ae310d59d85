import { describe, expect, it } from 'vitest';
import { blastRadius } from './blast-radius';
import { parseStatements } from './parse-statements';
import { buildSchemaIndex } from './schema-index';
import { statementFacts } from './statement-facts';
import { shopSnapshot } from './test-schema';

async function radius(sql: string) {
  const schema = buildSchemaIndex(shopSnapshot());
  const [p] = await parseStatements(sql);
  return blastRadius(statementFacts(p!, schema), schema, 0);
}

describe('blastRadius', () => {
  it('follows ON DELETE CASCADE recursively and SET NULL one hop for DELETE', async () => {
    const { affected, chains } = await radius('DELETE FROM customers WHERE id = 1');
    expect(affected.map((a) => [a.table, a.impact, a.cascade_path?.join('>') ?? null])).toEqual([
      ['public.customers', 'direct', null],
      ['public.orders', 'cascade', 'public.customers>public.orders'],
      ['public.order_items', 'cascade', 'public.customers>public.orders>public.order_items'],
      ['public.shipments', 'cascade', 'public.customers>public.orders>public.shipments'],
    ]);
    expect(chains.find((c) => c.path.at(-1) === 'public.shipments')).toMatchObject({
      action: 'set_null',
      depth: 2,
      via: ['orders_customer_id_fkey', 'shipments_order_id_fkey'],
    });
  });

  it('reaches nothing for a DELETE on a table nobody references', async () => {
    expect((await radius('DELETE FROM events')).affected).toEqual([{ table: 'public.events', impact: 'direct', cascade_path: null }]);
  });

  it('TRUNCATE CASCADE reaches every referencing table; without CASCADE only the table', async () => {
    expect((await radius('TRUNCATE orders CASCADE')).affected.map((a) => a.table)).toEqual(['public.orders', 'public.order_items', 'public.shipments']);
    expect((await radius('TRUNCATE orders')).affected.map((a) => a.table)).toEqual(['public.orders']);
  });

  it('DROP TABLE reaches the referencing tables; a new FK reaches the referenced table', async () => {
    expect((await radius('DROP TABLE orders CASCADE')).chains.map((c) => c.action)).toEqual(['drop_constraint', 'drop_constraint']);
    expect((await radius('ALTER TABLE shipments ADD FOREIGN KEY (order_id) REFERENCES orders(id)')).affected[1]).toEqual({
      table: 'public.orders',
      impact: 'cascade',
      cascade_path: ['public.shipments', 'public.orders'],
    });
  });
});
