import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitLeases } from '../accounts/rate-limit-leases';
import { ensureUser } from '../accounts/users';
import { migrate } from '../store/migrate';
import { foundationMigrations } from '../store/migrations/foundation';
import { PgliteStore } from '../store/pglite-store';
import type { Queryable } from '../store/store';
import { admitBillableRequest, getBalance, listUsage } from './meter';

describe('admitBillableRequest', () => {
  let store: PgliteStore;
  let now = new Date('2026-01-01T00:00:10Z');
  const clock = { now: () => now };
  const request = { method: 'POST', path: '/api/v1/execute' };
  /** Leases of one request, as in the cloud: every request counted and charged in one statement. */
  const admitOne = (db: PgliteStore, user: string, req: typeof request, rl: { limit: number; windowMs: number }, c: typeof clock) =>
    admitBillableRequest(db, new RateLimitLeases(1), user, req, rl, c);

  beforeAll(async () => {
    store = await PgliteStore.open();
    await migrate(store, foundationMigrations);
  });
  afterAll(() => store.close());

  const windows = async (user: string) =>
    (await store.query<{ count: number }>('SELECT count FROM rate_limit_windows WHERE user_id = $1 ORDER BY window_start', [user])).rows.map((r) => r.count);

  it('charges within the limit and refuses over it without charging', async () => {
    const user = await ensureUser(store, 'meter', 'a');
    const rl = { limit: 2, windowMs: 60_000 };
    expect(await admitOne(store, user, request, rl, clock)).toBe('9.9950');
    expect(await admitOne(store, user, request, rl, clock)).toBe('9.9900');
    const error = await admitOne(store, user, request, rl, clock).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', headers: { 'Retry-After': '50' } });
    expect((await getBalance(store, user)).balance).toBe('9.9900');
    expect(await listUsage(store, user)).toHaveLength(2);
    expect(await windows(user)).toEqual([3]);

    // The next window starts afresh and forgets the old one.
    now = new Date('2026-01-01T00:01:00Z');
    expect(await admitOne(store, user, request, rl, clock)).toBe('9.9850');
    expect(await windows(user)).toEqual([1]);
  });

  it('counts a request it cannot charge and answers INSUFFICIENT_CREDITS', async () => {
    const user = await ensureUser(store, 'meter', 'b');
    await store.query('UPDATE users SET balance = 0.0040 WHERE id = $1', [user]);
    await expect(admitOne(store, user, request, { limit: 5, windowMs: 60_000 }, clock)).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect((await getBalance(store, user)).balance).toBe('0.0040');
    expect(await listUsage(store, user)).toHaveLength(0);
    expect(await windows(user)).toEqual([1]);
  });

  it('lets exactly as many concurrent requests through as both the credits and the limit allow', async () => {
    const rich = await ensureUser(store, 'meter', 'c');
    await store.query('UPDATE users SET balance = 0.0500 WHERE id = $1', [rich]);
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => admitOne(store, rich, request, { limit: 1000, windowMs: 60_000 }, clock)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect((await getBalance(store, rich)).balance).toBe('0.0000');

    const limited = await ensureUser(store, 'meter', 'd');
    const capped = await Promise.allSettled(Array.from({ length: 30 }, () => admitOne(store, limited, request, { limit: 7, windowMs: 60_000 }, clock)));
    expect(capped.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
    expect(await listUsage(store, limited)).toHaveLength(7);
  });

  it('with leases, charges a request that finds none in the same statement as the lease, and the rest alone', async () => {
    const user = await ensureUser(store, 'meter', 'e');
    const rl = { limit: 1000, windowMs: 60_000 };
    const leases = new RateLimitLeases(100);
    const statements: string[] = [];
    const db: Queryable = { query: ((sql: string, params?: readonly unknown[]) => (statements.push(sql), store.query(sql, params))) as Queryable['query'] };
    for (let i = 0; i < 30; i++) await admitBillableRequest(db, leases, user, request, rl, clock);
    // One statement counts 100 requests and charges the first; the first lease of the window clears older ones.
    expect(statements.filter((q) => q.includes('rate_limit_windows'))).toHaveLength(2);
    expect(statements).toHaveLength(31);
    expect(await windows(user)).toEqual([100]);
    expect((await getBalance(store, user)).balance).toBe('9.8500');
    expect(await listUsage(store, user)).toHaveLength(30);
  });

  it('with leases, serves and charges exactly the limit of concurrent requests, from one process or two', async () => {
    const rl = { limit: 20, windowMs: 60_000 };
    const one = await ensureUser(store, 'meter', 'f');
    const leases = new RateLimitLeases(100);
    const alone = await Promise.allSettled(Array.from({ length: 30 }, () => admitBillableRequest(store, leases, one, request, rl, clock)));
    expect(alone.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    expect(alone.filter((r) => r.status === 'rejected').map((r) => (r.reason as { code: string }).code)).toEqual(Array(10).fill('RATE_LIMITED'));
    expect(await listUsage(store, one)).toHaveLength(20);

    // Two processes: what one leased and did not use is lost to the other, so fewer may be served, never more.
    const two = await ensureUser(store, 'meter', 'g');
    const [a, b] = [new RateLimitLeases(100), new RateLimitLeases(100)];
    const both = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => admitBillableRequest(store, i % 2 ? a : b, two, request, rl, clock)));
    const served = both.filter((r) => r.status === 'fulfilled').length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(20);
    expect(await listUsage(store, two)).toHaveLength(served);
    expect((await getBalance(store, two)).total_requests).toBe(served);
  });
});
