import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnInfo, ForeignKeyInfo, TableInfo } from '../../introspection/schema-snapshot';
import { createPgliteFromTemplate } from '../../store/pglite-template';
import type { GenerationRequest } from '../language-model';
import { generateOffline } from './offline-generator';

const DDL = `
CREATE TYPE order_status AS ENUM ('pending', 'shipped', 'delivered', 'cancelled');
CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL, city text, is_active boolean NOT NULL DEFAULT true, created_at timestamptz NOT NULL);
CREATE TABLE products (id int PRIMARY KEY, name text NOT NULL, price numeric(10,2) NOT NULL);
CREATE TABLE orders (id int PRIMARY KEY, customer_id int NOT NULL REFERENCES customers(id), status order_status NOT NULL, total numeric(10,2) NOT NULL, created_at timestamptz NOT NULL);
CREATE TABLE order_items (id int PRIMARY KEY, order_id int NOT NULL REFERENCES orders(id), product_id int NOT NULL REFERENCES products(id), quantity int NOT NULL);
INSERT INTO customers VALUES (1, 'Alice', 'Berlin', true, '2024-01-05'), (2, 'Bob', 'Paris', true, '2024-03-01'), (3, 'Carol', 'Berlin', false, '2023-06-01');
INSERT INTO products VALUES (1, 'Lamp', 20), (2, 'Desk', 250), (3, 'Chair', 90);
INSERT INTO orders VALUES (1, 1, 'shipped', 270, '2024-02-01'), (2, 1, 'pending', 20, '2024-05-01'), (3, 2, 'delivered', 90, '2023-12-24'), (4, 1, 'shipped', 90, '2024-06-01');
INSERT INTO order_items VALUES (1, 1, 1, 1), (2, 1, 2, 1), (3, 2, 1, 1), (4, 3, 3, 1), (5, 4, 3, 1);
`;

const col = (name: string, data_type: string, udt_name: string, ordinal: number): ColumnInfo => ({
  name,
  ordinal,
  data_type,
  udt_name,
  nullable: false,
  default: null,
  identity: null,
  generated: null,
  comment: null,
});
const fk = (name: string, column: string, table: string): ForeignKeyInfo => ({
  name,
  columns: [column],
  referenced_schema: 'public',
  referenced_table: table,
  referenced_columns: ['id'],
  on_delete: 'no_action',
  on_update: 'no_action',
  validated: true,
  definition: '',
});
const table = (name: string, columns: ColumnInfo[], foreign_keys: ForeignKeyInfo[] = []): TableInfo => ({
  schema: 'public',
  name,
  kind: 'table',
  columns,
  primary_key: ['id'],
  constraints: [],
  foreign_keys,
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

const tables: TableInfo[] = [
  table('customers', [
    col('id', 'integer', 'int4', 1),
    col('name', 'text', 'text', 2),
    col('city', 'text', 'text', 3),
    col('is_active', 'boolean', 'bool', 4),
    col('created_at', 'timestamp with time zone', 'timestamptz', 5),
  ]),
  table('products', [col('id', 'integer', 'int4', 1), col('name', 'text', 'text', 2), col('price', 'numeric(10,2)', 'numeric', 3)]),
  table(
    'orders',
    [
      col('id', 'integer', 'int4', 1),
      col('customer_id', 'integer', 'int4', 2),
      col('status', 'order_status', 'order_status', 3),
      col('total', 'numeric(10,2)', 'numeric', 4),
      col('created_at', 'timestamp with time zone', 'timestamptz', 5),
    ],
    [fk('orders_customer_id_fkey', 'customer_id', 'customers')],
  ),
  table(
    'order_items',
    [col('id', 'integer', 'int4', 1), col('order_id', 'integer', 'int4', 2), col('product_id', 'integer', 'int4', 3), col('quantity', 'integer', 'int4', 4)],
    [fk('oi_order', 'order_id', 'orders'), fk('oi_product', 'product_id', 'products')],
  ),
];

const request = (question: string): GenerationRequest => ({
  question,
  tables: tables.map((t) => ({ table: t, similarity: 0.5 })),
  enums: [{ schema: 'public', name: 'order_status', values: ['pending', 'shipped', 'delivered', 'cancelled'] }],
  documents: [],
  attempts: [],
});

describe('offline SQL generator', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPgliteFromTemplate();
    await db.exec(DDL);
  });
  afterAll(() => db.close());

  const rows = async (sql: string) => (await db.query<Record<string, unknown>>(sql)).rows.map((r) => JSON.stringify(Object.values(r)));

  it.each([
    ['How many customers are there?', 'SELECT count(*) FROM customers'],
    ['How many orders were shipped?', "SELECT count(*) FROM orders WHERE status = 'shipped'"],
    ['List the active customers', 'SELECT * FROM customers WHERE is_active'],
    ['Show customers from Berlin', "SELECT * FROM customers WHERE city = 'Berlin'"],
    [
      'What is the total of orders per customer?',
      'SELECT c.id, c.name, sum(o.total) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id, c.name',
    ],
    ['Average price of products', 'SELECT round(avg(price), 2) FROM products'],
    ['Orders with total more than 100', 'SELECT * FROM orders WHERE total > 100'],
    ['How many orders in 2024?', "SELECT count(*) FROM orders WHERE created_at >= '2024-01-01' AND created_at < '2025-01-01'"],
    ['Top 2 products by price', 'SELECT * FROM products ORDER BY price DESC LIMIT 2'],
    ['Customers with more than 1 orders', 'SELECT c.* FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id HAVING count(o.id) > 1'],
    ['Order items with quantity 1', 'SELECT * FROM order_items WHERE quantity = 1'],
    [
      'Total order item quantity per product',
      'SELECT p.id, p.name, sum(oi.quantity) FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.id, p.name',
    ],
    ['Top 2 orders by total', 'SELECT * FROM orders ORDER BY total DESC, id LIMIT 2'],
    [
      'Average quantity per product',
      'SELECT p.id, p.name, round(avg(oi.quantity), 2) FROM products p JOIN order_items oi ON oi.product_id = p.id GROUP BY p.id, p.name',
    ],
    ['Number of orders by status', 'SELECT status, count(*) FROM orders GROUP BY status'],
    ['Customers who never placed an order', 'SELECT * FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)'],
    ["Produce a list of the products whose name contains the word 'a'. Return the id and the price.", "SELECT id, price FROM products WHERE name LIKE '%a%'"],
    ['Find the products whose price is between 20 and 90. Return the name.', 'SELECT name FROM products WHERE price BETWEEN 20 AND 90'],
    ['Produce a count of the products whose price is 90 or more.', 'SELECT count(*) FROM products WHERE price >= 90'],
    ['Produce an ordered list of the first 2 cities of customers, without duplicates.', 'SELECT DISTINCT city FROM customers ORDER BY city LIMIT 2'],
    ['Find the lowest and the highest price of the products.', 'SELECT min(price), max(price) FROM products'],
    [
      'List each status that has more than 1 orders. Return the status and the number of orders.',
      'SELECT status, count(*) FROM orders GROUP BY status HAVING count(*) > 1',
    ],
    ['How many orders has customer 1 made?', 'SELECT count(*) FROM orders WHERE customer_id = 1'],
    ['List the orders with ids 2 and 4', 'SELECT * FROM orders WHERE id IN (2, 4)'],
    [
      'Which customer has the most orders?',
      'SELECT c.id, c.name, count(o.id) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id, c.name ORDER BY 3 DESC LIMIT 1',
    ],
  ])('answers %s', async (question, reference) => {
    const out = generateOffline(request(question));
    expect(out.sql, out.reasoning).not.toBe('');
    expect(out.confidence).toBeGreaterThanOrEqual(0.5);
    expect((await rows(out.sql)).sort(), out.sql).toEqual((await rows(reference)).sort());
  });

  it('is honest about question shapes it has no rule for', () => {
    const out = generateOffline(request('Customers without an order in each city'));
    expect(out.confidence).toBeLessThan(0.5);
    expect(out.warnings.join(' ')).toMatch(/negation/);
  });

  it('is honest when the schema does not cover the question', () => {
    const out = generateOffline(request('What is the weather on Mars tomorrow?'));
    expect(out.confidence).toBeLessThan(0.5);
  });

  it('puts a sampled value on the column holding it, and says when another column holds it too', () => {
    const sole = generateOffline({
      ...request('How many customers are in Paris?'),
      values: [{ schema: 'public', table: 'customers', column: 'city', values: ['Berlin', 'Paris'] }],
    });
    expect(sole.sql).toMatch(/c\.city = 'Paris'/);
    expect(sole.confidence).toBe(1);
    const shared = generateOffline({
      ...request('How many customers are from Paris?'),
      values: [
        { schema: 'public', table: 'customers', column: 'city', values: ['Berlin', 'Paris'] },
        { schema: 'public', table: 'customers', column: 'name', values: ['Alice', 'Bob', 'Paris'] },
      ],
    });
    expect(shared.sql).toMatch(/c\.city = 'Paris'/);
    expect(shared.confidence).toBeLessThan(0.8);
    expect(shared.warnings.join(' ')).toMatch(/also a value of customers\.name/);
  });

  it('compares an unknown capitalised name case-insensitively and counts the guess', () => {
    const out = generateOffline(request('Show customers from Lisbon'));
    expect(out.sql).toMatch(/c\.city ILIKE 'Lisbon'/);
    expect(out.confidence).toBeLessThan(0.8);
    expect(out.warnings.join(' ')).toMatch(/"Lisbon" is not a value seen/);
  });

  it('is never confident when a name no sampled value knows is put on a column the question did not name', () => {
    const out = generateOffline({
      ...request('Show the orders of customers from Lisbon'),
      values: [{ schema: 'public', table: 'customers', column: 'city', values: ['Berlin', 'Paris'] }],
    });
    expect(out.sql).toMatch(/ILIKE 'Lisbon'/);
    expect(out.confidence).toBeLessThan(0.8);
    expect(out.warnings.join(' ')).toMatch(/"Lisbon" was taken for a value of customers\.\w+, a column the question did not name/);
  });

  it('is never confident when "by" after a verb was read as groups', () => {
    const out = generateOffline(request('Orders created in 2024 by customers'));
    expect(out.sql).toMatch(/GROUP BY/);
    expect(out.confidence).toBeLessThan(0.8);
    expect(out.warnings.join(' ')).toMatch(/"by" was read as groups of customers, though it may name who did/);
  });

  it('is never confident when a step failed and was replaced', () => {
    // No measure to rank customers by: ordered by the key instead, an answer to another question.
    const out = generateOffline(request('Which are the top 2 customers?'), { answerThreshold: 0 });
    expect(out.warnings.join(' ')).toMatch(/No measure to rank by was found; ordered by the primary key/);
    expect(out.confidence).toBeLessThan(0.8);
  });

  it('declines below its threshold, saying what it did not understand, unless told to always answer', () => {
    const question = 'What share of the customers moved house twice?';
    const declined = generateOffline(request(question));
    expect(declined.sql).toBe('');
    expect(declined.warnings[0]).toMatch(/^Not answered: .*"moved"/);
    expect(generateOffline(request(question), { answerThreshold: 0 }).sql).not.toBe('');
  });

  it('never answers while ignoring a number of the question, and names it', () => {
    const out = generateOffline(request('How many orders weigh 77 kilos?'), { answerThreshold: 0 });
    expect(out.confidence).toBeLessThan(0.5);
    expect(out.warnings.join(' ')).toMatch(/I did not use: 77\b/);
    const declined = generateOffline(request('How many orders weigh 77 kilos?'));
    expect(declined.sql).toBe('');
    expect(declined.warnings[0]).toMatch(/"77" \(not used by the SQL\)/);
  });

  it('is never confident while a content word of the question is placed nowhere, and names it', () => {
    const out = generateOffline(request('How many customers hibernate?'));
    expect(out.sql).not.toBe('');
    expect(out.confidence).toBeLessThan(0.8);
    expect(out.warnings.join(' ')).toMatch(/I did not use: hibernate\./);
  });

  it('ranks rows with ties sharing a rank, and computes arithmetic between columns', async () => {
    const ranked = generateOffline(
      request('Rank the products by price, most expensive first, with equal prices sharing a rank. Return the name, the price and the rank.'),
    );
    expect(ranked.sql).toMatch(/rank\(\) OVER \(ORDER BY p\.price DESC\)/);
    expect(ranked.confidence).toBeGreaterThanOrEqual(0.8);
    expect((await rows(ranked.sql)).length).toBe(3);
    const line = generateOffline(request('For the order items of order 1, return the id and the quantity times the price.'));
    expect(line.sql).toMatch(/oi\.quantity \* p\.price/);
    expect((await rows(line.sql)).sort()).toEqual(['[1,"20.00"]', '[2,"250.00"]']);
  });

  it('is never confident when "the name of" a joined table is not in the SQL', () => {
    // "name" is a stop word, yet here it names products.name, which the SQL does not give.
    const name = generateOffline(request('Return the quantity of every order item together with the name of its product.'));
    expect(name.confidence).toBeLessThan(0.8);
    expect(name.warnings.join(' ')).toMatch(/I did not use: name\./);
  });

  it('is never confident when an output item was not understood, even if all its words are stop words or columns', () => {
    const item = generateOffline(request('List the orders with a total above 100. Return the id and the number of days between the creation and today.'));
    expect(item.confidence).toBeLessThan(0.8);
    expect(item.warnings.join(' ')).toMatch(/the output "number of days between the creation" was not understood/);
  });

  it('is never confident when an output item is a column several unnamed tables hold, or carries a word it did not read', () => {
    // "the first name": customers.name and products.name both fit "name", neither is part of the query, and "first" named nothing.
    const out = generateOffline(request('List the orders that were shipped. Return the id and the first name.'));
    expect(out.confidence).toBeLessThan(0.8);
    expect(out.warnings.join(' ')).toMatch(/I did not use: first\./);
    expect(out.warnings.join(' ')).toMatch(/the output "first name" names a column of customers and of products/);
  });

  it('is never confident when "how much ... in total" is answered with rows', () => {
    const out = generateOffline(request('How much did customer 1 spend in total?'), { answerThreshold: 0 });
    expect(out.confidence).toBeLessThan(0.8);
    expect(out.warnings.join(' ')).toMatch(/I did not use: .*\b(much|total)\b/);
  });

  it('is never confident when an output item asks for an aggregate the SQL does not compute', () => {
    const out = generateOffline(request('For each status, return the status and the average total.'));
    expect(out.sql).not.toMatch(/avg\(/);
    expect(out.confidence).toBeLessThan(0.8);
    expect(out.warnings.join(' ')).toMatch(/I did not use: average\./);
    const shown = generateOffline(request('List the customers in Berlin, without duplicates. Return the city.'));
    expect(shown.warnings.join(' ')).not.toMatch(/without/);
  });

  it('is never confident when an operation the question asks for ("not") is not in the SQL', () => {
    const not = generateOffline({
      ...request('Show the customers that are not from Berlin'),
      values: [{ schema: 'public', table: 'customers', column: 'city', values: ['Berlin', 'Paris'] }],
    });
    expect(not.confidence).toBeLessThan(0.8);
    expect(not.warnings.join(' ')).toMatch(/I did not use: not\./);
  });

  it('only uses names from the schema it was given', () => {
    const out = generateOffline(request('How many orders per customer in the last 30 days?'));
    expect(out.referenced_tables.sort()).toEqual(['public.customers', 'public.orders']);
    expect(out.sql).toMatch(/interval '30 days'/);
  });
});
