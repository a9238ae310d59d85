import type { DdlNode, DdlStatement } from './ddl-statement';

/**
 * Orders nodes so every node comes after the nodes it depends on (dependencies on ids that are
 * not nodes are ignored: built-in objects, or objects not recreated). Among the nodes ready at a
 * step, the lowest rank and then the earliest given comes first, which keeps the output stable.
 * A cycle (which pg_dump breaks by splitting objects) is broken by placing the waiting node of
 * lowest rank: its statement may then fail, and the caller reports it.
 */
export function orderNodes(nodes: readonly DdlNode[]): DdlStatement[] {
  const index = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (!index.has(n.id)) index.set(n.id, i);
  });
  // Nodes may share an id (several statements for one object): the later depend on the first.
  const waiting = new Array<number>(nodes.length).fill(0);
  const dependents: number[][] = nodes.map(() => []);
  nodes.forEach((n, i) => {
    const first = index.get(n.id)!;
    const deps = new Set<number>();
    if (first !== i) deps.add(first);
    for (const d of n.deps) {
      const j = index.get(d);
      if (j !== undefined && j !== i && !(nodes[j]!.id === n.id && j > i)) deps.add(j);
    }
    waiting[i] = deps.size;
    for (const j of deps) dependents[j]!.push(i);
  });

  const ready = new MinHeap((a, b) => nodes[a]!.rank - nodes[b]!.rank || a - b);
  waiting.forEach((w, i) => {
    if (w === 0) ready.push(i);
  });
  const placed = new Array<boolean>(nodes.length).fill(false);
  const out: DdlStatement[] = [];
  let count = 0;
  while (count < nodes.length) {
    let i = ready.pop();
    if (i === undefined) {
      // A cycle: take the waiting node of lowest rank.
      let best = -1;
      for (let k = 0; k < nodes.length; k++) if (!placed[k] && (best < 0 || nodes[k]!.rank < nodes[best]!.rank)) best = k;
      i = best;
      waiting[i] = 0;
    }
    if (placed[i]) continue;
    placed[i] = true;
    count++;
    out.push(...nodes[i]!.statements);
    for (const j of dependents[i]!) if (!placed[j] && --waiting[j]! === 0) ready.push(j);
  }
  return out;
}

/** A binary heap of node positions. */
class MinHeap {
  private readonly items: number[] = [];
  constructor(private readonly less: (a: number, b: number) => number) {}

  push(v: number): void {
    const a = this.items;
    a.push(v);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(a[i]!, a[p]!) >= 0) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  pop(): number | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l]!, a[m]!) < 0) m = l;
        if (r < a.length && this.less(a[r]!, a[m]!) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}
