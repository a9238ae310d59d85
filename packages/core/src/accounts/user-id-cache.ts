import type { Queryable } from '../store/store';
import { ensureUser } from './users';

/** Most identities remembered; the least recently used is dropped past it. */
const MAX_ENTRIES = 10_000;

/**
 * The user id behind a JWT's issuer and subject, remembered for the life of the process: the
 * pair is bound to one id when the user is first seen and never rebound (users are not deleted),
 * so unlike an API key's owner there is nothing a remembered id could miss. It saves every
 * JWT request a state-store trip, in cloud mode as well.
 */
export class UserIdCache {
  readonly #ids = new Map<string, string>();

  async find(db: Queryable, issuer: string, subject: string): Promise<string> {
    const key = `${issuer}\n${subject}`;
    const known = this.#ids.get(key);
    if (known !== undefined) {
      this.#ids.delete(key);
      this.#ids.set(key, known);
      return known;
    }
    const id = await ensureUser(db, issuer, subject);
    if (this.#ids.size >= MAX_ENTRIES) this.#ids.delete(this.#ids.keys().next().value!);
    this.#ids.set(key, id);
    return id;
  }
}
