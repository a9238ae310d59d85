import { improvementText } from './cost-format';
import { costWithHypotheticalIndex, enableHypopg, type HypopgMode } from './hypopg';
import { candidateKey, coveredByExisting, createIndexSql, type IndexCandidate } from './index-candidate';
import { estimateIndexBytes, formatBytes, writeOverheadWarning } from './index-impact';
import { findTable, type LiveCatalog } from './live-catalog';
import type { PlanSession } from './plan-session';
import type { IndexRecommendation } from './types';

/** A hypothetical index must lower the plan's cost by at least this share to be recommended. */
const MIN_GAIN = 0.01;

export interface RecommendInput {
  session: PlanSession;
  catalog: LiveCatalog;
  sql: string;
  paramCount: number;
  baseCost: number;
  hypopg: HypopgMode;
  candidates: IndexCandidate[];
}

/** True when `longer` starts with all of `shorter`'s keys on the same table and predicate: it serves both. */
function extends_(longer: IndexCandidate, shorter: IndexCandidate): boolean {
  if (longer.schema !== shorter.schema || longer.table !== shorter.table || longer.predicate !== shorter.predicate) return false;
  if (longer.keys.length <= shorter.keys.length) return false;
  return shorter.keys.every((k, i) => longer.keys[i]!.column === k.column && !!longer.keys[i]!.descending === !!k.descending);
}

/** De-duplicates, drops covered candidates, validates the rest and turns them into recommendations. */
export async function recommendIndexes(input: RecommendInput): Promise<IndexRecommendation[]> {
  const unique = new Map<string, IndexCandidate>();
  for (const c of input.candidates) {
    const existing = unique.get(candidateKey(c));
    if (existing) existing.benefits = [...new Set([...existing.benefits, ...c.benefits])];
    else unique.set(candidateKey(c), { ...c, benefits: [...c.benefits] });
  }
  const all = [...unique.values()];
  const live = all.filter((c) => {
    const table = findTable(input.catalog, c.table, c.schema);
    return table !== undefined && !coveredByExisting(c, table.indexes) && !all.some((other) => other !== c && extends_(other, c));
  });
  if (live.length === 0) return [];

  const measured = new Map<IndexCandidate, { cost: number; sizeBytes: number } | null>();
  let usedHypopg = false;
  if (input.hypopg !== 'absent') {
    await input.session.rolledBack(async () => {
      usedHypopg = await enableHypopg(input.session, input.hypopg);
      if (!usedHypopg) return;
      for (const c of live) measured.set(c, await costWithHypotheticalIndex(input.session, createIndexSql(c, false), input.sql, input.paramCount));
    });
  }

  const out: IndexRecommendation[] = [];
  for (const c of live) {
    const table = findTable(input.catalog, c.table, c.schema)!;
    const base = {
      table_name: c.schema === 'public' ? c.table : `${c.schema}.${c.table}`,
      columns: c.keys.map((k) => `${k.column}${k.descending ? ' DESC' : ''}`),
      index_type: c.predicate ? 'btree (partial)' : c.keys.some((k) => k.isExpression) ? 'btree (expression)' : 'btree',
      create_sql: createIndexSql(c, true),
      reason: c.reason,
      write_overhead_warning: writeOverheadWarning(c, table),
      detection_method: c.detection_method,
      cost_before: input.baseCost,
    };
    if (usedHypopg) {
      const m = measured.get(c);
      if (!m || m.cost >= input.baseCost * (1 - MIN_GAIN)) continue;
      out.push({
        ...base,
        estimated_storage_impact: `about ${formatBytes(m.sizeBytes)} (HypoPG estimate)`,
        benefits: [...c.benefits, `Verified with a hypothetical index (HypoPG): ${improvementText(input.baseCost, m.cost)}`],
        validated: true,
        validation_method: 'hypopg',
        cost_after: m.cost,
      });
    } else {
      out.push({
        ...base,
        estimated_storage_impact: `about ${formatBytes(estimateIndexBytes(c, table))} (estimated from ${Math.round(table.rowEstimate).toLocaleString('en-US')} rows and the key columns' average width; unverified)`,
        benefits: [...c.benefits, 'Improvement unverified: HypoPG is not available on this database, so the planner could not be asked'],
        validated: false,
        validation_method: 'estimate',
        cost_after: null,
      });
    }
  }
  // Largest verified gain first; unverified ones keep rule order after them.
  return out.sort((a, b) => (a.cost_after ?? Infinity) - (b.cost_after ?? Infinity));
}
