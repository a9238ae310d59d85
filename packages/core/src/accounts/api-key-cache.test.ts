import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../store/migrate';
import { foundationMigrations } from '../store/migrations/foundation';
import { guardrailsMigrations } from '../store/migrations/guardrails';
import { PgliteStore } from '../store/pglite-store';
import { ApiKeyOwnerCache } from './api-key-cache';
import { createApiKey, revokeApiKey } from './api-keys';
import { ensureUser } from './users';

describe('ApiKeyOwnerCache', () => {
  let store: PgliteStore;

  beforeAll(async () => {
    store = await PgliteStore.open();
    await migrate(store, [...foundationMigrations, ...guardrailsMigrations]);
  });
  afterAll(() => store.close());

  it('remembers an active key for its TTL, and a revoke it is told of refuses the next request', async () => {
    const user = await ensureUser(store, 'cache', 'a');
    const key = await createApiKey(store, user, 'k');
    const cache = new ApiKeyOwnerCache(10_000);
    expect((await cache.find(store, key.key, 0))?.keyId).toBe(key.id);
    await revokeApiKey(store, user, key.id);
    // A revoke this cache was not told of (another process) is seen after the TTL...
    expect((await cache.find(store, key.key, 5_000))?.keyId).toBe(key.id);
    expect(await cache.find(store, key.key, 10_001)).toBeNull();
    // ...and one it is told of at once.
    const other = await createApiKey(store, user, 'k2');
    expect((await cache.find(store, other.key, 0))?.keyId).toBe(other.id);
    await revokeApiKey(store, user, other.id);
    cache.forgetKey(other.id);
    expect(await cache.find(store, other.key, 1)).toBeNull();
  });

  it('does not remember a look-up that was in flight during a revoke', async () => {
    const user = await ensureUser(store, 'cache', 'b');
    const key = await createApiKey(store, user, 'k');
    const cache = new ApiKeyOwnerCache(10_000);
    const inFlight = cache.find(store, key.key, 0);
    await revokeApiKey(store, user, key.id);
    cache.forgetKey(key.id);
    expect((await inFlight)?.keyId).toBe(key.id);
    expect(await cache.find(store, key.key, 1)).toBeNull();
  });

  it('does not remember unknown keys, and with TTL 0 asks the store every time', async () => {
    const user = await ensureUser(store, 'cache', 'c');
    const cache = new ApiKeyOwnerCache(0);
    const key = await createApiKey(store, user, 'k');
    expect((await cache.find(store, key.key, 0))?.keyId).toBe(key.id);
    await revokeApiKey(store, user, key.id);
    expect(await cache.find(store, key.key, 1)).toBeNull();
    expect(await new ApiKeyOwnerCache(10_000).find(store, 'dbo_unknown', 0)).toBeNull();
  });
});
