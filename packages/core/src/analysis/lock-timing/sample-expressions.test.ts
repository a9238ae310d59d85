import { describe, expect, it } from 'vitest';
import { analyzeStatements } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import { buildSnapshot } from '../snapshot-builder';
import type { HoldEstimate } from './calibration';
import { rewriteExpressions, withMeasuredExpressions } from './sample-expressions';

const factsOf = async (sql: string) => analyzeStatements(await parseStatements(sql), buildSchemaIndex(buildSnapshot([]))).map((i) => i.facts);

describe('the values a rewrite computes for every row', () => {
  it('are the added columns’ defaults and generated expressions and each type change’s conversion, cast to the column type', async () => {
    const [facts] = await factsOf(
      'ALTER TABLE t ADD COLUMN u uuid DEFAULT gen_random_uuid(), ADD COLUMN g int GENERATED ALWAYS AS (a * 2) STORED, ALTER COLUMN b TYPE bigint, ALTER COLUMN c TYPE numeric(8, 2) USING round(c::numeric, 2)',
    );
    expect(rewriteExpressions(facts!)).toEqual([
      'gen_random_uuid()::uuid',
      'CAST(a * 2 AS int)',
      'CAST(b AS bigint)',
      'CAST(round(c::numeric, 2) AS numeric(8, 2))',
    ]);
  });

  it('leave out identity and serial columns (a sequence is a write) and statements that compute nothing', async () => {
    const facts = await factsOf(
      'ALTER TABLE t ADD COLUMN i int GENERATED ALWAYS AS IDENTITY; ALTER TABLE t ADD COLUMN s bigserial; ALTER TABLE t SET TABLESPACE pg_default',
    );
    expect(facts.map((f) => rewriteExpressions(f))).toEqual([[], [], []]);
  });
});

describe('withMeasuredExpressions', () => {
  const estimate: HoldEstimate = { ms: 100, low: 60, high: 160, cls: 'rewrite', basis: 'rewrite' };
  // 30 ms of computing over the whole table, beyond the scan.
  const sample = { percent: 100, rows: 100_000, computedMs: 40, scanMs: 10 };

  it('adds what computing the values took, unless a cheap value on a slow target: the calibrated copy prices that', () => {
    expect(withMeasuredExpressions(estimate, sample, 1).ms).toBeCloseTo(100 + 30 * 1.25, 5);
    expect(withMeasuredExpressions(estimate, sample, 2)).toBe(estimate);
    expect(withMeasuredExpressions(estimate, { ...sample, computedMs: 20 }, 1)).toBe(estimate);
  });
});
