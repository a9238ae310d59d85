import { quoteQualified } from '../../pg/quote';
import { type FeatureClient, optionalQuery, samplePercent } from './live-table';

/**
 * A page sample of at most `sampleBytes` of the heap (`TABLESAMPLE SYSTEM`), the same pages every
 * time (`REPEATABLE`), as a FROM item: what the lock-time measurements on the target read.
 */
export function samplePages(table: string, heapBytes: number, sampleBytes: number, alias?: string): { percent: number; from: string } {
  const percent = samplePercent(heapBytes, sampleBytes);
  return { percent, from: `${quoteQualified(table)}${alias ? ` ${alias}` : ''} TABLESAMPLE SYSTEM (${percent.toFixed(4)}) REPEATABLE (7)` };
}

/** A query's execution time as the server measured it (no round trip in it), ms, and the rows its top node returned. */
export interface ServerTiming {
  ms: number;
  rows: number;
}

/**
 * Runs `query` under `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON)`: executed, its rows computed
 * and not sent. Null when it failed (under a savepoint: the transaction goes on).
 */
export async function serverTiming(client: FeatureClient, query: string): Promise<ServerTiming | null> {
  const rows = await optionalQuery(client, `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${query}`);
  const plan = (
    (rows?.[0] as Record<string, unknown> | undefined)?.['QUERY PLAN'] as Array<{ 'Execution Time'?: number; Plan?: { 'Actual Rows'?: number } }> | undefined
  )?.[0];
  const ms = plan?.['Execution Time'];
  return typeof ms === 'number' ? { ms, rows: plan?.Plan?.['Actual Rows'] ?? 0 } : null;
}

/** A sample's share of the table as the bases say it: two decimals under 1 %, whole percents above. */
export const percentText = (percent: number): string => (percent < 1 ? percent.toFixed(2) : percent.toFixed(0));

/**
 * `expressions` computed over the rows of `from`, and the same read computing nothing, each timed
 * by the server (EXPLAIN ANALYZE: every row's values are computed, none is sent): the work of
 * computing them is the difference. Null when either could not be timed.
 */
export async function computedAgainstScan(
  client: FeatureClient,
  from: string,
  expressions: readonly string[],
): Promise<{ rows: number; computedMs: number; scanMs: number } | null> {
  const scan = await serverTiming(client, `SELECT FROM ${from}`);
  const computed = await serverTiming(client, `SELECT ${expressions.join(', ')} FROM ${from}`);
  return scan && computed ? { rows: computed.rows, computedMs: computed.ms, scanMs: scan.ms } : null;
}
