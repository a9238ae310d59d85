import { describe, expect, it } from 'vitest';
import { deepFreeze } from './deep-freeze';

describe('deepFreeze', () => {
  it('freezes every object and array reachable from the value, and returns the value itself', () => {
    const value = { tables: [{ name: 't', columns: [{ name: 'id' }] }], meta: { tags: ['a'] }, n: 1 };
    expect(deepFreeze(value)).toBe(value);
    for (const part of [value, value.tables, value.tables[0], value.tables[0]!.columns[0], value.meta, value.meta.tags])
      expect(Object.isFrozen(part)).toBe(true);
    expect(() => value.tables[0]!.columns.push({ name: 'x' })).toThrow(TypeError);
    expect(() => (value.meta.tags[0] = 'b')).toThrow(TypeError);
  });

  it('ends on a structure that refers to itself', () => {
    const node: { self?: unknown } = {};
    node.self = node;
    expect(Object.isFrozen(deepFreeze(node))).toBe(true);
  });
});
