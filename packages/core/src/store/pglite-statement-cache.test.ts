import { describe, expect, it } from 'vitest';
import { PgliteStatementCache } from './pglite-statement-cache';

describe('PgliteStatementCache', () => {
  it('parses a text once and reuses its name', () => {
    const cache = new PgliteStatementCache(4);
    const first = cache.nameFor('SELECT 1');
    expect(first.parse).toBe(true);
    expect(cache.nameFor('SELECT 1')).toEqual({ name: first.name, parse: false });
    expect(cache.nameFor('SELECT 2').name).not.toBe(first.name);
  });

  it('closes the least recently used name when full', () => {
    const cache = new PgliteStatementCache(2);
    const a = cache.nameFor('a').name;
    cache.nameFor('b');
    cache.nameFor('a'); // a is now the most recently used
    cache.nameFor('c');
    expect(cache.size).toBe(2);
    expect(cache.nameFor('a').parse).toBe(false);
    expect(cache.nameFor('b').parse).toBe(true);
    expect(cache.takeClosing()).toHaveLength(2); // b's old name, then c's when b came back
    expect(cache.takeClosing()).toEqual([]);
    expect(a).toMatch(/^dbops_/);
  });

  it('forgets a text after a failure, never reusing its name', () => {
    const cache = new PgliteStatementCache();
    const { name } = cache.nameFor('SELECT x');
    cache.forget('SELECT x');
    expect(cache.takeClosing()).toEqual([name]);
    const again = cache.nameFor('SELECT x');
    expect(again.parse).toBe(true);
    expect(again.name).not.toBe(name);
  });
});
