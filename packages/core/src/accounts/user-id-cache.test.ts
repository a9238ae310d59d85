import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteStore } from '../store/pglite-store';
import { migrate } from '../store/migrate';
import { serviceMigrations } from '../store/migrations/index';
import type { Queryable } from '../store/store';
import { UserIdCache } from './user-id-cache';

describe('UserIdCache', () => {
  let store: PgliteStore;
  beforeAll(async () => {
    store = await PgliteStore.open();
    await migrate(store, serviceMigrations);
  });
  afterAll(() => store.close());

  it('creates the user once and answers later look-ups without the store', async () => {
    const queries: string[] = [];
    const counting: Queryable = { query: (sql, params) => (queries.push(sql), store.query(sql, params)) };
    const cache = new UserIdCache();
    const id = await cache.find(counting, 'https://issuer.example', 'alice');
    const trips = queries.length;
    expect(trips).toBeGreaterThan(0);
    expect(await cache.find(counting, 'https://issuer.example', 'alice')).toBe(id);
    expect(queries).toHaveLength(trips);
    // Same subject, another issuer: another user.
    expect(await cache.find(counting, 'https://other.example', 'alice')).not.toBe(id);
    // A second process (a new cache) finds the same user.
    expect(await new UserIdCache().find(store, 'https://issuer.example', 'alice')).toBe(id);
  });
});
