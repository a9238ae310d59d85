import { describe, expect, it } from 'vitest';
import type { DdlNode } from './ddl-statement';
import { orderNodes } from './dependency-order';

const node = (id: string, rank: number, deps: string[] = []): DdlNode => ({ id, rank, deps, statements: [{ object: id, kind: 'table', sql: id }] });
const order = (nodes: DdlNode[]): string[] => orderNodes(nodes).map((s) => s.sql);

describe('orderNodes', () => {
  it('places every node after its dependencies, whatever their rank', () => {
    // A view (rank 7) on a view, a function (rank 4) over a table's row type (rank 6), a table whose default calls it.
    const nodes = [node('v2', 7, ['v1']), node('v1', 7, ['t1']), node('f', 4, ['t1']), node('t2', 6, ['f']), node('t1', 6)];
    const got = order(nodes);
    const at = (id: string): number => got.indexOf(id);
    expect(got).toHaveLength(5);
    expect(at('t1')).toBeLessThan(at('f'));
    expect(at('f')).toBeLessThan(at('t2'));
    expect(at('t1')).toBeLessThan(at('v1'));
    expect(at('v1')).toBeLessThan(at('v2'));
  });

  it('orders independent nodes by rank, then as given', () => {
    expect(order([node('table', 6), node('schema', 1), node('type-b', 3), node('type-a', 3)])).toEqual(['schema', 'type-b', 'type-a', 'table']);
  });

  it('ignores dependencies on ids that are not nodes (built-in objects)', () => {
    expect(order([node('t', 6, ['pg_type:23']), node('s', 1)])).toEqual(['s', 't']);
  });

  it('keeps the nodes of one id together in order, and breaks a cycle at its lowest rank instead of dropping nodes', () => {
    const nodes = [node('a', 6, ['b']), node('b', 4, ['a']), { ...node('a', 16), statements: [{ object: 'a', kind: 'table' as const, sql: 'a-extra' }] }];
    const got = order(nodes);
    expect(got).toEqual(['b', 'a', 'a-extra']);
  });
});
