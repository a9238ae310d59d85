import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { migrate } from '../store/migrate';
import { foundationMigrations } from '../store/migrations/foundation';
import { PgliteStore } from '../store/pglite-store';
import { consumeRateLimit } from './rate-limiter';
import { ensureUser } from './users';

describe('consumeRateLimit', () => {
  let store: PgliteStore;
  let now = new Date('2026-01-01T00:00:10Z');
  const clock = { now: () => now };
  const settings = { limit: 3, windowMs: 60_000 };

  beforeAll(async () => {
    store = await PgliteStore.open();
    await migrate(store, foundationMigrations);
  });
  afterAll(() => store.close());

  it('allows the limit, then refuses with Retry-After until the window ends', async () => {
    const user = await ensureUser(store, 'rl', 'a');
    for (let i = 0; i < 3; i++) await consumeRateLimit(store, user, settings, clock);
    const error = await consumeRateLimit(store, user, settings, clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('RATE_LIMITED');
    expect((error as AppError).headers).toEqual({ 'Retry-After': '50' });

    now = new Date('2026-01-01T00:01:00Z');
    await expect(consumeRateLimit(store, user, settings, clock)).resolves.toBeUndefined();
    const windows = await store.query('SELECT * FROM rate_limit_windows WHERE user_id = $1', [user]);
    expect(windows.rows).toHaveLength(1);
  });

  it('counts users separately', async () => {
    const b = await ensureUser(store, 'rl', 'b');
    await expect(consumeRateLimit(store, b, settings, clock)).resolves.toBeUndefined();
  });
});
