import { predicatesFor, type Predicate } from '../predicate-analysis';
import type { RawPlanNode } from '../raw-plan';
import { unwrap } from './rule-context';

/** One side of an equality join: the scanned relation and its join column. */
export interface JoinSide {
  scan: RawPlanNode;
  alias: string;
  predicate: Predicate;
  otherRows: number;
}

/** Scans reachable below a node without crossing another join. */
function scansUnder(node: RawPlanNode): RawPlanNode[] {
  const n = unwrap(node);
  if (n['Relation Name']) return [n];
  if (n['Node Type'] === 'Hash' || n['Node Type'] === 'Sort') return (n.Plans ?? []).flatMap(scansUnder);
  return [];
}

/** The equality join sides of hash, merge and nested-loop joins whose inputs are plain scans. */
export async function joinSides(join: RawPlanNode): Promise<JoinSide[]> {
  const cond = join['Hash Cond'] ?? join['Merge Cond'] ?? join['Join Filter'];
  if (!cond || join.Plans?.length !== 2) return [];
  const out: JoinSide[] = [];
  for (const [i, child] of join.Plans.entries()) {
    const other = join.Plans[1 - i]!;
    for (const scan of scansUnder(child)) {
      const alias = scan.Alias ?? scan['Relation Name']!;
      for (const p of await predicatesFor(cond, alias)) {
        if (p.kind === 'join' && !p.isExpression) out.push({ scan, alias, predicate: p, otherRows: other['Plan Rows'] });
      }
    }
  }
  return out;
}

export const JOIN_TYPES = new Set(['Hash Join', 'Merge Join', 'Nested Loop']);
