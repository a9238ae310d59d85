import { createHash } from 'node:crypto';

/**
 * Decrypted connection strings kept in memory for a short while, so the requests of a warm
 * instance do not unwrap the same data key again and again (in the cloud, a KMS Decrypt call of
 * several milliseconds and a request quota per call). The key is a digest of the stored record
 * (id, owner, ciphertext, wrapped data key): a changed connection string is a new record and
 * misses; a deactivated connection is refused before the cache is consulted. Nothing is written
 * anywhere; entries expire after `ttlMs` and the oldest go first beyond `maxEntries`.
 */
export class SecretCache {
  readonly #entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  static keyOf(parts: readonly (string | Uint8Array)[]): string {
    const h = createHash('sha256');
    for (const p of parts) h.update(typeof p === 'string' ? Buffer.from(p, 'utf8') : p).update('\0');
    return h.digest('hex');
  }

  async get(key: string, nowMs: number, load: () => Promise<string>): Promise<string> {
    if (this.ttlMs <= 0) return load();
    const hit = this.#entries.get(key);
    if (hit && hit.expiresAt > nowMs) return hit.value;
    if (hit) this.#entries.delete(key);
    const value = await load();
    this.#entries.set(key, { value, expiresAt: nowMs + this.ttlMs });
    while (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
