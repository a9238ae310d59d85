import { describe, expect, it } from 'vitest';
import { OwnerQueues } from './owner-queues';

describe('OwnerQueues', () => {
  it("takes from the owner with the fewest running first, so one owner's backlog never holds another's file", () => {
    const q = new OwnerQueues<string>();
    for (let i = 0; i < 5; i++) q.push('alice', `a${i}`);
    q.push('bob', 'b0');
    const running = new Map([['alice', 2]]);
    expect(q.take((o) => running.get(o) ?? 0)).toEqual({ owner: 'bob', item: 'b0' });
    expect(q.take((o) => running.get(o) ?? 0)).toEqual({ owner: 'alice', item: 'a0' });
    expect(q.size).toBe(4);
  });

  it('alternates between owners with as many running, in order within each owner', () => {
    const q = new OwnerQueues<string>();
    ['a0', 'a1', 'a2'].forEach((x) => q.push('alice', x));
    ['b0', 'b1'].forEach((x) => q.push('bob', x));
    const taken: string[] = [];
    for (let next = q.take(() => 0); next; next = q.take(() => 0)) taken.push(next.item);
    expect(taken).toEqual(['a0', 'b0', 'a1', 'b1', 'a2']);
    expect(q.owners()).toEqual([]);
  });
});
