import { describe, expect, it } from 'vitest';
import { analyzeStatements } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import { buildSnapshot } from '../snapshot-builder';
import { GIST_KEY_COSTS, SPGIST_KEY_COST } from './index-key-cost';
import { snapshotFeatures } from './snapshot-features';

/** A rewrite's features from the snapshot alone, the second index built with `method`. */
async function rewriteOf(method: string) {
  const snapshot = buildSnapshot([
    { name: 'stays', columns: ['id bigint not null', 'span tstzrange'], primaryKey: ['id'], indexes: [['span']], rows: 1_000_000 },
  ]);
  const index = buildSchemaIndex(snapshot);
  const table = index.table('public.stays')!;
  table.indexes[1]!.method = method;
  const parsed = await parseStatements('VACUUM FULL stays');
  return snapshotFeatures(parsed[0]!, analyzeStatements(parsed, index)[0]!.facts, table, undefined)!.features;
}

describe("a rewrite's rebuilds from the snapshot", () => {
  it('sorts btree indexes again and prices GiST and SP-GiST ones by their key cost as builds', async () => {
    const btree = await rewriteOf('btree');
    expect(btree.rebuildIndexes).toBe(2);
    expect(btree.rebuildGistCost ?? 0).toBe(0);
    const gist = await rewriteOf('gist');
    expect(gist.rebuildIndexes).toBe(1);
    expect(gist.rebuildGistCost).toBe(GIST_KEY_COSTS.range);
    expect((await rewriteOf('spgist')).rebuildGistCost).toBe(SPGIST_KEY_COST);
  });
});
