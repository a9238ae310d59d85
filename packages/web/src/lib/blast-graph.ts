import type { AffectedTable, ImpactChain } from '../api/types';

export interface GraphNode {
  id: string;
  impact: 'direct' | 'cascade';
  depth: number;
  x: number;
  y: number;
}

export interface GraphEdge {
  from: string;
  to: string;
  /** What PostgreSQL does along this foreign key (`cascade`, `set_null`, ...), when the impact chains say. */
  action: string | null;
}

export interface BlastGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

export const NODE_W = 170;
export const NODE_H = 36;
const COL_GAP = 90;
const ROW_GAP = 18;
const PAD = 12;

/**
 * Foreign-key blast radius as a layered graph: directly modified tables in the first column,
 * each cascade table in the column of its depth (hops along its cascade path). Edges follow the
 * cascade paths; their action comes from the impact chain with the same hop, if any.
 */
export function layoutBlastGraph(affected: readonly AffectedTable[], chains: readonly ImpactChain[]): BlastGraph {
  const depthOf = new Map<string, number>();
  const impactOf = new Map<string, 'direct' | 'cascade'>();
  const edges = new Map<string, GraphEdge>();
  const actionOf = new Map<string, string>();
  for (const c of chains) {
    const full = c.path[0] === c.root ? c.path : [c.root, ...c.path];
    const last = full.length - 1;
    if (last >= 1) actionOf.set(`${full[last - 1]}->${full[last]}`, c.action);
  }
  const addEdge = (from: string, to: string): void => {
    const key = `${from}->${to}`;
    if (from !== to && !edges.has(key)) edges.set(key, { from, to, action: actionOf.get(key) ?? null });
  };
  for (const a of affected) {
    if (a.impact === 'direct') {
      depthOf.set(a.table, 0);
      impactOf.set(a.table, 'direct');
    }
  }
  for (const a of affected) {
    if (a.impact !== 'cascade') continue;
    const path = a.cascade_path && a.cascade_path.length > 0 ? a.cascade_path : [a.table];
    path.forEach((t, i) => {
      if (!impactOf.has(t)) impactOf.set(t, i === 0 ? 'direct' : 'cascade');
      const prev = depthOf.get(t);
      if (prev === undefined || (impactOf.get(t) === 'cascade' && i < prev)) depthOf.set(t, impactOf.get(t) === 'direct' ? 0 : i);
      if (i > 0) addEdge(path[i - 1]!, t);
    });
    if (!depthOf.has(a.table)) depthOf.set(a.table, Math.max(1, path.length - 1));
  }
  for (const c of chains) {
    const full = c.path[0] === c.root ? c.path : [c.root, ...c.path];
    full.forEach((t, i) => {
      if (!depthOf.has(t)) {
        depthOf.set(t, i);
        impactOf.set(t, i === 0 ? 'direct' : 'cascade');
      }
      if (i > 0) addEdge(full[i - 1]!, t);
    });
  }
  const columns = new Map<number, string[]>();
  for (const [t, d] of depthOf) columns.set(d, [...(columns.get(d) ?? []), t]);
  const nodes: GraphNode[] = [];
  let maxRows = 0;
  for (const [d, tables] of [...columns].sort((a, b) => a[0] - b[0])) {
    tables.sort();
    maxRows = Math.max(maxRows, tables.length);
    tables.forEach((t, row) =>
      nodes.push({ id: t, impact: impactOf.get(t) ?? 'cascade', depth: d, x: PAD + d * (NODE_W + COL_GAP), y: PAD + row * (NODE_H + ROW_GAP) }),
    );
  }
  const maxDepth = Math.max(0, ...nodes.map((n) => n.depth));
  return {
    nodes,
    edges: [...edges.values()],
    width: PAD * 2 + (maxDepth + 1) * NODE_W + maxDepth * COL_GAP,
    height: PAD * 2 + Math.max(1, maxRows) * NODE_H + Math.max(0, maxRows - 1) * ROW_GAP,
  };
}
