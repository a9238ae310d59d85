import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { startTextToSqlFixture, type TextToSqlFixture } from '../support/text-to-sql';

// A rental shop of our own: films with a language, a year column next to a timestamp, a
// customer table with a sensitive column, and payments partitioned by month.
const RENTALS_SQL = `
CREATE TABLE language (language_id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE film (film_id int PRIMARY KEY, title text NOT NULL, release_year int NOT NULL, language_id int NOT NULL REFERENCES language, last_update timestamptz NOT NULL);
CREATE TABLE customer (customer_id int PRIMARY KEY, email text NOT NULL, active boolean NOT NULL);
CREATE TABLE payment (payment_id int NOT NULL, customer_id int NOT NULL REFERENCES customer, amount numeric(6,2) NOT NULL, paid_at timestamptz NOT NULL) PARTITION BY RANGE (paid_at);
${Array.from({ length: 12 }, (_, m) => `CREATE TABLE payment_p2024_${String(m + 1).padStart(2, '0')} PARTITION OF payment FOR VALUES FROM ('2024-${String(m + 1).padStart(2, '0')}-01') TO ('${m === 11 ? '2025-01' : `2024-${String(m + 2).padStart(2, '0')}`}-01');`).join('\n')}
CREATE TABLE refund (refund_id int NOT NULL, customer_id int NOT NULL, amount numeric(6,2) NOT NULL, refunded_on date NOT NULL) PARTITION BY RANGE (refunded_on);
CREATE TABLE refund_2024 PARTITION OF refund (FOREIGN KEY (customer_id) REFERENCES customer) FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
INSERT INTO language VALUES (1, 'English'), (2, 'Italian'), (3, 'German');
INSERT INTO film SELECT g, 'Film ' || g, 2000 + g % 8, 1 + g % 3, '2024-06-01' FROM generate_series(1, 30) g;
INSERT INTO customer SELECT g, 'c' || g || '@example.com', g % 4 <> 0 FROM generate_series(1, 20) g;
INSERT INTO refund SELECT g, 1 + g % 5, g, '2024-05-01' FROM generate_series(1, 10) g;
INSERT INTO payment SELECT g, 1 + g % 20, (g % 7) + 0.99, '2024-01-01'::timestamptz + (g || ' days')::interval FROM generate_series(1, 300) g;
`;

let f: TextToSqlFixture;
beforeAll(async () => {
  f = await startTextToSqlFixture({ user: 't2s-values', setupSql: RENTALS_SQL });
});
afterAll(() => f.close());

const rows = async (query: string): Promise<string> => JSON.stringify((await sql(f.db.url, query)).map((r) => Object.values(r)));

describe('text-to-SQL over values, partitions and years', () => {
  it('answers from the partitioned table, never from one of its partitions', async () => {
    const res = await f.generate({ query: 'What is the total amount of all payments?' });
    expect(res.status, res.text).toBe(200);
    const d = res.body.data;
    expect(d.referenced_tables).toEqual(['public.payment']);
    expect(d.sql).not.toMatch(/payment_p2024/);
    expect(await rows(d.sql)).toBe(await rows('SELECT sum(amount) FROM payment'));
  });

  it('joins a partitioned table along the foreign keys its partitions declare', async () => {
    const res = await f.generate({ query: 'What is the total refund amount per customer?' });
    expect(res.status, res.text).toBe(200);
    const d = res.body.data;
    expect(d.referenced_tables.sort()).toEqual(['public.customer', 'public.refund']);
    expect(await rows(`SELECT count(*) FROM (${d.sql}) x`)).toBe(await rows('SELECT count(DISTINCT customer_id) FROM refund'));
  });

  it('maps a value to the column holding it, joined along the foreign key, with full confidence', async () => {
    const res = await f.generate({ query: 'How many films are in Italian?' });
    expect(res.status, res.text).toBe(200);
    const d = res.body.data;
    expect(d.sql).toMatch(/\.name = 'Italian'/);
    expect(d.confidence).toBe(1);
    expect(await rows(d.sql)).toBe(await rows("SELECT count(*) FROM film f JOIN language l USING (language_id) WHERE l.name = 'Italian'"));
  });

  it('reads a year from the year column, not from another timestamp', async () => {
    const res = await f.generate({ query: 'How many films were released in 2003?' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.sql).toMatch(/release_year = 2003/);
    expect(await rows(res.body.data.sql)).toBe(await rows('SELECT count(*) FROM film WHERE release_year = 2003'));
  });

  it('says what it did not understand instead of guessing below the threshold', async () => {
    const res = await f.generate({ query: 'What percentage of films are in Italian?' });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.code).toBe('SQL_GENERATION_FAILED');
    expect(res.body.data.sql).toBe('');
    expect(res.body.data.confidence).toBeLessThan(0.5);
    expect(res.body.data.markdown_output).toMatch(/did not understand .*ratio or percentage/);
  });
});
