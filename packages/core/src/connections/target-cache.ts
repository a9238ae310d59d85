import type { ConnectionTarget } from './connection-target';

interface Entry {
  target: ConnectionTarget;
  expiresAt: number;
}

/** Most targets remembered; the oldest is dropped past it. */
const MAX_ENTRIES = 1000;

/**
 * Loaded connection targets (the row, its decrypted string) for `ttlMs`
 * (`DBOPS_CONNECTION_CACHE_SECONDS`), so a warm process does not read the connection from the
 * state store on every /execute. A change or deactivation made in this process forgets the
 * connection at once ({@link forget}), and a load that was in flight during one is not kept; a
 * change made by another process is seen after at most `ttlMs` (0 by default in cloud mode,
 * where the connection routes are other functions).
 */
export class TargetCache {
  readonly #entries = new Map<string, Entry>();
  #changes = 0;

  constructor(readonly ttlMs: number) {}

  async get(userId: string, connectionId: string, nowMs: number, load: () => Promise<ConnectionTarget>): Promise<ConnectionTarget> {
    if (this.ttlMs <= 0) return load();
    const key = `${userId}\0${connectionId}`;
    const hit = this.#entries.get(key);
    if (hit && hit.expiresAt > nowMs) return hit.target;
    if (hit) this.#entries.delete(key);
    const changes = this.#changes;
    const target = await load();
    if (changes === this.#changes) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, { target, expiresAt: nowMs + this.ttlMs });
    }
    return target;
  }

  forget(connectionId: string): void {
    this.#changes++;
    for (const [key, e] of this.#entries) if (e.target.id === connectionId) this.#entries.delete(key);
  }
}
