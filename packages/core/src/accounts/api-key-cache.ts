import { findApiKeyOwner, hashApiKey } from './api-keys';
import type { KeyPolicy } from './key-policy';
import type { Queryable } from '../store/store';

/** The owner of an active key, as {@link findApiKeyOwner} answers it. */
export interface ApiKeyOwner {
  userId: string;
  keyId: string;
  policy: KeyPolicy | null;
}

interface Entry {
  owner: ApiKeyOwner;
  expiresAt: number;
}

/** Most keys remembered; the oldest is dropped past it. */
const MAX_ENTRIES = 10_000;

/**
 * Owners of recently used API keys, for `ttlMs` (`DBOPS_AUTH_CACHE_SECONDS`), as API Gateway
 * caches an authorizer's answer per identity source: the key look-up is a state-store trip on
 * every request otherwise. Only active keys are remembered (an unknown key is asked again, so a
 * key works from its first request). A revoke in this process forgets the key at once
 * ({@link forgetKey}), and a look-up that was in flight during a revoke is not remembered, so a
 * revoked key fails on its next request here; a revoke made by another process is seen after at
 * most `ttlMs` (which is why the default is 0 in cloud mode, where the authorizer is a function
 * of its own).
 */
export class ApiKeyOwnerCache {
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();
  /** Bumped by every revoke: a look-up that started before one is not remembered. */
  #revokes = 0;

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  async find(db: Queryable, rawKey: string, nowMs: number): Promise<ApiKeyOwner | null> {
    if (this.#ttlMs <= 0) return findApiKeyOwner(db, rawKey);
    const hash = hashApiKey(rawKey);
    const hit = this.#entries.get(hash);
    if (hit && hit.expiresAt > nowMs) return hit.owner;
    if (hit) this.#entries.delete(hash);
    const revokes = this.#revokes;
    const owner = await findApiKeyOwner(db, rawKey);
    if (owner && revokes === this.#revokes) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(hash, { owner, expiresAt: nowMs + this.#ttlMs });
    }
    return owner;
  }

  /** Called when key `keyId` is revoked in this process: its next request is looked up again (and refused). */
  forgetKey(keyId: string): void {
    this.#revokes++;
    for (const [hash, e] of this.#entries) if (e.owner.keyId === keyId) this.#entries.delete(hash);
  }
}
