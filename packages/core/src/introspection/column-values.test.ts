import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../test/support/scratch-database';
import { readTargetSchema } from './catalog-read';
import { isSensitiveColumn, sampleColumnValues, valueSampleSettings } from './column-values';

const SCHEMA = `
  CREATE TABLE language (id int PRIMARY KEY, name text NOT NULL);
  CREATE TABLE film (
    id int PRIMARY KEY, title text NOT NULL, language_id int REFERENCES language (id),
    rating text, discontinued int NOT NULL, copies int NOT NULL, notes text,
    email text, customer_password text, "firstName" text, ship_phone text
  );
  CREATE TABLE payment (id int, paid_on date NOT NULL, method text NOT NULL) PARTITION BY RANGE (paid_on);
  CREATE TABLE payment_2024 PARTITION OF payment FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
  INSERT INTO language VALUES (1, 'English'), (2, 'Italian');
  INSERT INTO film SELECT g, 'Film ' || g, 1 + g % 2, (ARRAY['G', 'PG', 'PG-13'])[1 + g % 3], g % 2, g, repeat('x', 100),
    'f' || g || '@example.com', 'secret' || g, 'Name' || g, '555-' || g
  FROM generate_series(1, 40) g;
  INSERT INTO payment VALUES (1, '2024-03-01', 'card'), (2, '2024-04-01', 'cash');
`;

describe('column value samples', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createScratchDatabase('colvals');
    await sql(db.url, SCHEMA);
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it('reads the distinct values of low-cardinality text columns and 0/1 flags, never sensitive ones', async () => {
    const schema = await readTargetSchema(client, 10_000);
    const samples = await sampleColumnValues(client, schema.tables, valueSampleSettings({ valueSamples: true, valueSampleMax: 10 }));
    const of = (table: string, column: string) => samples.find((s) => s.table === table && s.column === column)?.values;
    expect(of('language', 'name')).toEqual(['English', 'Italian']);
    expect(of('film', 'rating')).toEqual(['G', 'PG', 'PG-13']);
    expect(of('film', 'discontinued')).toEqual(['0', '1']);
    // 40 titles are more than the 10 allowed: not low-cardinality, left out entirely.
    expect(of('film', 'title')).toBeUndefined();
    // 40 distinct numbers: no flag. Values longer than 80 characters: free text.
    expect(of('film', 'copies')).toBeUndefined();
    expect(of('film', 'notes')).toBeUndefined();
    for (const column of ['email', 'customer_password', 'firstName', 'ship_phone', 'id', 'language_id']) expect(of('film', column)).toBeUndefined();
    // A partitioned table is read as one table; its partitions are not read on their own.
    expect(of('payment', 'method')).toEqual(['card', 'cash']);
    expect(samples.some((s) => s.table === 'payment_2024')).toBe(false);
    // The session it ran on is read-only from then on.
    await expect(client.query('CREATE TABLE x (a int)')).rejects.toThrow(/read-only/);
  });

  it('gives the same samples on two connections, one of them joining late, as on one', async () => {
    const schema = await readTargetSchema(client, 10_000);
    const settings = valueSampleSettings({ valueSamples: true, valueSampleMax: 10 });
    const alone = await sampleColumnValues(client, schema.tables, settings);
    const [a, b] = [new pg.Client({ connectionString: db.url }), new pg.Client({ connectionString: db.url })];
    await Promise.all([a.connect(), b.connect()]);
    try {
      // Many small tables, so the work spans several round trips on both.
      const many = Array.from({ length: 30 }, () => schema.tables).flat();
      const late = new Promise<pg.Client>((resolve) => setTimeout(() => resolve(b), 50));
      const split = await sampleColumnValues([a, late], many, settings);
      expect(split).toEqual(await sampleColumnValues(client, many, settings));
      expect(split.slice(0, alone.length)).toEqual(alone);
      // A client that never comes (a second connection refused) leaves the work to the other.
      expect(await sampleColumnValues([Promise.resolve(undefined), a], schema.tables, settings)).toEqual(alone);
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('skips a table it cannot read without losing the tables read in the same round trip', async () => {
    const schema = await readTargetSchema(client, 10_000);
    const settings = { ...valueSampleSettings({ valueSamples: true, valueSampleMax: 10 }), statementTimeoutMs: 300 };
    const alone = await sampleColumnValues(client, schema.tables, settings);
    const locker = new pg.Client({ connectionString: db.url });
    const reader = new pg.Client({ connectionString: db.url });
    await Promise.all([locker.connect(), reader.connect()]);
    try {
      // The film table's query waits on the lock until its statement timeout.
      await locker.query('BEGIN; LOCK TABLE film IN ACCESS EXCLUSIVE MODE');
      const samples = await sampleColumnValues([reader], schema.tables, settings);
      expect(samples).toEqual(alone.filter((s) => s.table !== 'film'));
      expect(samples.map((s) => s.table)).toEqual(['language', 'payment']);
    } finally {
      await locker.query('ROLLBACK');
      await Promise.all([locker.end(), reader.end()]);
    }
  });

  it('reads nothing when turned off', async () => {
    const schema = await readTargetSchema(client, 10_000);
    expect(await sampleColumnValues(client, schema.tables, valueSampleSettings({ valueSamples: false, valueSampleMax: 10 }))).toEqual([]);
  });

  it('recognises sensitive column names by their parts', () => {
    for (const name of [
      'email',
      'billing_email',
      'password_hash',
      'api_key',
      'apiKey',
      'ssn',
      'home_phone',
      'fax',
      'postal_code',
      'first_name',
      'lastName',
      'username',
      'ip_address',
      'birth_date',
      'card_number',
    ])
      expect(isSensitiveColumn(name), name).toBe(true);
    for (const name of ['country', 'status', 'rating', 'category_name', 'passenger_count', 'shipping_method', 'city', 'title'])
      expect(isSensitiveColumn(name), name).toBe(false);
  });
});
