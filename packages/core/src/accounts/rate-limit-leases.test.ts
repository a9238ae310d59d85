import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { migrate } from '../store/migrate';
import { foundationMigrations } from '../store/migrations/foundation';
import { PgliteStore } from '../store/pglite-store';
import type { Queryable } from '../store/store';
import { RateLimitLeases } from './rate-limit-leases';
import { ensureUser } from './users';

/** A store that counts the statements sent to it. */
const counting = (store: Queryable): Queryable & { trips: number } => {
  const c: Queryable & { trips: number } = {
    trips: 0,
    query: ((sql: string, params?: readonly unknown[]) => (c.trips++, store.query(sql, params))) as Queryable['query'],
  };
  return c;
};

const refused = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof AppError ? e.code : e),
  );

describe('RateLimitLeases', () => {
  let store: PgliteStore;
  let now = new Date('2026-01-01T00:00:10Z');
  const clock = { now: () => now };

  beforeAll(async () => {
    store = await PgliteStore.open();
    await migrate(store, foundationMigrations);
  });
  afterAll(() => store.close());

  it('serves exactly the limit from leases, with far fewer store trips than requests, then refuses with Retry-After', async () => {
    const user = await ensureUser(store, 'lease', 'a');
    const settings = { limit: 600, windowMs: 60_000 };
    const db = counting(store);
    const leases = new RateLimitLeases(100);
    for (let i = 0; i < 600; i++) await leases.consume(db, user, settings, clock);
    expect(db.trips).toBeLessThan(60);
    const error = await leases.consume(db, user, settings, clock).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('RATE_LIMITED');
    expect((error as AppError).headers).toEqual({ 'Retry-After': '50' });
    // The store's count covers every request served: another process cannot add one more.
    expect(await refused(new RateLimitLeases(1).consume(store, user, settings, clock))).toBe('RATE_LIMITED');

    now = new Date('2026-01-01T00:01:00Z');
    await expect(leases.consume(db, user, settings, clock)).resolves.toBeUndefined();
    const windows = await store.query('SELECT * FROM rate_limit_windows WHERE user_id = $1', [user]);
    expect(windows.rows).toHaveLength(1);
  });

  it('never lets two processes together past the limit, concurrent requests included', async () => {
    const user = await ensureUser(store, 'lease', 'b');
    const settings = { limit: 50, windowMs: 60_000 };
    const a = new RateLimitLeases(100);
    const b = new RateLimitLeases(100);
    const outcomes = await Promise.all(Array.from({ length: 80 }, (_, i) => refused((i % 2 ? a : b).consume(store, user, settings, clock))));
    const served = outcomes.filter((o) => o === null).length;
    expect(outcomes.filter((o) => o !== null).every((o) => o === 'RATE_LIMITED')).toBe(true);
    expect(served).toBeLessThanOrEqual(50);
    expect(served).toBeGreaterThan(0);
  });

  it('lets a request take the lease in its own statement, and hands the rest of it out from memory within its window only', async () => {
    const user = await ensureUser(store, 'lease', 'c');
    const settings = { limit: 1000, windowMs: 60_000 };
    const leases = new RateLimitLeases(100);
    const sizes: number[] = [];
    const take = async (size: number) => (sizes.push(size), { count: size, mine: 'taken' });
    expect(await leases.admit(store, user, settings, clock, take)).toEqual({ count: 100, mine: 'taken' });
    for (let i = 0; i < 99; i++) expect(await leases.admit(store, user, settings, clock, take)).toBeUndefined();
    expect(sizes).toEqual([100]);
    expect(await leases.admit(store, user, settings, clock, async (size) => ({ count: 100 + size }))).toEqual({ count: 200 });
    now = new Date(now.getTime() + 60_000);
    expect(await leases.admit(store, user, settings, clock, take)).toEqual({ count: 100, mine: 'taken' });
    // A lease whose first request is over the limit is refused, and the window is spent.
    const over = new RateLimitLeases(100);
    expect(await refused(over.admit(store, user, settings, clock, async (size) => ({ count: 1000 + size })))).toBe('RATE_LIMITED');
    expect(await refused(over.admit(store, user, settings, clock, take))).toBe('RATE_LIMITED');
  });

  it('with a lease of 1 counts every request in the store', async () => {
    const user = await ensureUser(store, 'lease', 'd');
    const settings = { limit: 3, windowMs: 60_000 };
    const leases = new RateLimitLeases(1);
    for (let i = 0; i < 3; i++) await leases.consume(store, user, settings, clock);
    const row = await store.query<{ count: number }>('SELECT count FROM rate_limit_windows WHERE user_id = $1', [user]);
    expect(Number(row.rows[0]?.count)).toBe(3);
    expect(await refused(leases.consume(store, user, settings, clock))).toBe('RATE_LIMITED');
  });
});
