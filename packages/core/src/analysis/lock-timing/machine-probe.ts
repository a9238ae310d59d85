/** A client that can run a query (a `pg.Client` or pooled client). */
export interface ProbeClient {
  query(text: string): Promise<{ rows: unknown[] }>;
}

/**
 * A fixed, read-only amount of executor work, timed by the server itself (EXPLAIN ANALYZE's
 * execution time, so network latency does not count): the ratio of this figure on the target
 * to the calibration server's carries the calibrated hold times over to the target's CPU and
 * current load. Median of three runs, ms.
 */
export const PROBE_SQL = `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) SELECT count(*), sum(g % 97) FROM generate_series(1, 300000) AS g WHERE g % 7 <> 3`;

export async function machineProbe(client: ProbeClient, runs = 3): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const res = await client.query(PROBE_SQL);
    const row = res.rows[0] as Record<string, unknown> | undefined;
    const plan = (row?.['QUERY PLAN'] as Array<{ 'Execution Time'?: number }> | undefined)?.[0];
    times.push(Number(plan?.['Execution Time'] ?? NaN));
  }
  const ok = times.filter(Number.isFinite).sort((a, b) => a - b);
  return ok[Math.floor(ok.length / 2)] ?? NaN;
}
