import { describe, expect, it } from 'vitest';
import { analyzeStatements } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import { buildSnapshot } from '../snapshot-builder';
import { builtIndex, dirtiedPages, entryIndexWeight, featureValue, timingClass, type TimingFeatures } from './timing-class';

async function classOf(sql: string) {
  const parsed = await parseStatements(sql);
  const facts = analyzeStatements(parsed, buildSchemaIndex(buildSnapshot([]))).map((i) => i.facts);
  return { cls: timingClass(parsed[0]!, facts[0]!), index: builtIndex(parsed[0]!, facts[0]!) };
}

describe('timing class of an index build', () => {
  it('times each access method apart, and a btree built CONCURRENTLY by a model of its own', async () => {
    expect((await classOf('CREATE INDEX i ON t (a)')).cls).toBe('index_btree');
    expect((await classOf('CREATE INDEX i ON t USING gin (doc)')).cls).toBe('index_gin');
    expect((await classOf('CREATE INDEX i ON t USING gist (span)')).cls).toBe('index_gist');
    expect((await classOf('CREATE INDEX i ON t USING brin (ts)')).cls).toBe('index_brin');
    expect((await classOf('CREATE INDEX i ON t USING hash (code)')).cls).toBe('index_hash');
    expect((await classOf('CREATE INDEX CONCURRENTLY i ON t (a)')).cls).toBe('index_concurrent');
    expect((await classOf('ALTER TABLE t ADD CONSTRAINT u UNIQUE (a, b)')).cls).toBe('index_btree');
    // An exclusion constraint builds an index of its own method on its elements.
    const exclusion = await classOf('ALTER TABLE t ADD CONSTRAINT x EXCLUDE USING gist (room WITH =, during WITH &&)');
    expect(exclusion.cls).toBe('index_gist');
    expect(exclusion.index!.params.map((p) => p.column)).toEqual(['room', 'during']);
  });

  it('reads every key of the index as written: column or expression, COLLATE, operator class', async () => {
    const { index } = await classOf(`CREATE INDEX CONCURRENTLY i ON t USING gin (doc jsonb_path_ops, (lower(a)), b COLLATE "C")`);
    expect(index).toEqual({
      method: 'gin',
      concurrent: true,
      params: [
        { column: 'doc', collation: null, opclass: 'jsonb_path_ops' },
        { column: null, collation: null, opclass: null },
        { column: 'b', collation: 'C', opclass: null },
      ],
    });
    expect((await classOf('ALTER TABLE t ADD PRIMARY KEY (a, b)')).index!.params.map((p) => p.column)).toEqual(['a', 'b']);
  });
});

describe('timing class of a data change', () => {
  it('times INSERTs apart from UPDATEs: a new row locks no old version', async () => {
    expect((await classOf('INSERT INTO t SELECT * FROM s WHERE a > 1')).cls).toBe('insert');
    expect((await classOf('INSERT INTO t VALUES (1)')).cls).toBe('insert');
    expect((await classOf('UPDATE t SET a = 1')).cls).toBe('update');
    expect((await classOf('DELETE FROM t WHERE a = 1')).cls).toBe('delete');
  });
});

describe('heap pages a DML statement dirties', () => {
  // 1M rows on 10,000 pages: 100 rows a page.
  const f = (touchedRows: number, foundByScan: boolean, rowsClustered = true) =>
    ({ rows: 1e6, heapBytes: 10_000 * 8192, touchedRows, foundByScan, rowsClustered }) as TimingFeatures;
  it('spreads rows a full scan finds over the heap and packs rows of an index range together', () => {
    // 10 % of the rows, found by a scan (id % 10 = 0): nearly every page holds one.
    expect(dirtiedPages(f(100_000, true))).toBeGreaterThan(9_999);
    // The same rows as an id range: a tenth of the pages.
    expect(dirtiedPages(f(100_000, false))).toBe(1_000);
    expect(dirtiedPages(f(0, true))).toBe(0);
  });
  it('spreads rows an index finds on a key the heap is not ordered by', () => {
    expect(dirtiedPages(f(100_000, false, false))).toBeGreaterThan(9_999);
  });
});

describe('heap pages visited outside a sequential scan', () => {
  const f = (foundByScan: boolean, rowsClustered: boolean) =>
    ({ rows: 1e6, heapBytes: 10_000 * 8192, touchedRows: 20_000, foundByScan, rowsClustered }) as TimingFeatures;
  it('prices the pages an index reaches (a page a row on an unordered key, a page per hundred rows of a range) and none a scan reads', () => {
    // 2 % of the rows on an unordered key: 1 - 0.98^100 of the 10,000 pages hold one (about 8,700).
    expect(featureValue('visited', f(false, false)) * 1e4).toBeCloseTo(10_000 * (1 - 0.98 ** 100), 0);
    expect(featureValue('visited', f(false, true)) * 1e4).toBe(200);
    // A sequential scan's planner cost already reads every page.
    expect(featureValue('visited', f(true, false))).toBe(0);
  });
});

describe('entryIndexWeight', () => {
  it('counts no entry in a BRIN index, half of one in a partial index whose predicate the UPDATE does not set, a whole one elsewhere', () => {
    expect(entryIndexWeight({ method: 'brin', partial: false })).toBe(0);
    expect(entryIndexWeight({ method: 'brin', partial: true })).toBe(0);
    expect(entryIndexWeight({ method: 'btree', partial: true })).toBe(0.5);
    expect(entryIndexWeight({ method: 'btree', partial: true, predicateAssigned: true })).toBe(1);
    expect(entryIndexWeight({ method: 'gin', partial: false })).toBe(1);
  });
});
