/**
 * Waiting work, one queue per owner (a user), taken fairly: the next item comes from the owner
 * with the fewest items running, and among equals from the one served least recently. So a
 * user's many or slow files never hold a file of another user behind them.
 */
export class OwnerQueues<T> {
  readonly #queues = new Map<string, T[]>();
  /** Owners with waiting items, least recently served first. */
  #order: string[] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(owner: string, item: T): void {
    const queue = this.#queues.get(owner);
    if (queue) queue.push(item);
    else {
      this.#queues.set(owner, [item]);
      this.#order.push(owner);
    }
    this.#size++;
  }

  /** Owners with waiting items. */
  owners(): readonly string[] {
    return this.#order;
  }

  /** Takes the next item: fewest running first (`running(owner)`), then least recently served. */
  take(running: (owner: string) => number): { owner: string; item: T } | undefined {
    let best: string | undefined;
    for (const owner of this.#order) if (best === undefined || running(owner) < running(best)) best = owner;
    if (best === undefined) return undefined;
    const queue = this.#queues.get(best)!;
    const item = queue.shift()!;
    this.#size--;
    this.#order = this.#order.filter((o) => o !== best);
    if (queue.length > 0) this.#order.push(best);
    else this.#queues.delete(best);
    return { owner: best, item };
  }
}
