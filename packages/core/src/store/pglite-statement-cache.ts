/**
 * Names of the statements a PGlite store has prepared in its one backend, by SQL text.
 *
 * The store's statements are a few hundred constant texts run again and again (the key look-up,
 * the charge, the balance). Parsing, analysing and planning them on every call was most of a
 * small query's cost in the WASM backend; a named statement skips all three, and PostgreSQL
 * re-plans it by itself when a table it reads changes.
 *
 * Bounded: texts built at run time (a list of N placeholders) must not grow the backend's memory
 * without end, so the least recently used name is closed when the cache is full. Names whose
 * statement may or may not exist (a trip that failed after its Parse) are closed too: closing a
 * statement that does not exist is not an error in the protocol.
 */
export class PgliteStatementCache {
  readonly #names = new Map<string, string>();
  readonly #toClose: string[] = [];
  #next = 0;

  constructor(readonly capacity = 256) {}

  /** The statement's name, and whether this trip must Parse it first. */
  nameFor(sql: string): { name: string; parse: boolean } {
    const known = this.#names.get(sql);
    if (known !== undefined) {
      // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
      this.#names.delete(sql);
      this.#names.set(sql, known);
      return { name: known, parse: false };
    }
    const name = `dbops_${(this.#next++).toString(36)}`;
    this.#names.set(sql, name);
    if (this.#names.size > this.capacity) {
      const [oldestSql, oldestName] = this.#names.entries().next().value as [string, string];
      this.#names.delete(oldestSql);
      this.#toClose.push(oldestName);
    }
    return { name, parse: true };
  }

  /** After a failed trip: the statement is not trusted again, and its name is closed. */
  forget(sql: string): void {
    const name = this.#names.get(sql);
    if (name === undefined) return;
    this.#names.delete(sql);
    this.#toClose.push(name);
  }

  /** Names to close on the next trip; the caller sends a Close for each. */
  takeClosing(): string[] {
    return this.#toClose.splice(0);
  }

  get size(): number {
    return this.#names.size;
  }
}
