/**
 * How a BRIN build's time relates to the sample the analysis reads for it (issue #32): the
 * smallest and largest value of the key over a page sample (`sampleBrin`, server-timed), scaled
 * to every page, against CREATE INDEX ... USING brin on the same table, on tables of our own from
 * 15 to 120 rows a page and from a quarter to twice shared buffers. Prints each table's ratios
 * and the line through their medians by the log of rows a page, the constants `sample-brin.ts` holds.
 *
 *   npx tsx bench/brin-ratio.ts [--runs 3]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sampleBrin } from '../packages/core/src/analysis/lock-timing/sample-brin';
import { DEFAULT_COUNT_LIMITS } from '../packages/core/src/analysis/lock-timing/live-features';
import { startPg15 } from '../test/support/pg15-server';
import { loadAverage, median } from './support/run-stats';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const RUNS = Number(values.runs ?? 3);

/** Tables of our own: rows and the bytes of padding each row carries. */
const SHAPES: Array<{ n: number; pad: number }> = [
  { n: 1_500_000, pad: 0 },
  { n: 400_000, pad: 40 },
  { n: 1_500_000, pad: 40 },
  { n: 600_000, pad: 150 },
  { n: 300_000, pad: 400 },
  { n: 700_000, pad: 400 },
];

async function main(): Promise<void> {
  const server = await startPg15();
  const c = new pg.Client({ connectionString: server.url });
  await c.connect();
  const buffers = String((await c.query('SHOW shared_buffers')).rows[0]?.shared_buffers);
  console.log(
    `BRIN build against its sample: ${os.cpus()[0]?.model} x${os.cpus().length}; shared_buffers ${buffers}; load ${loadAverage()}; ${new Date().toISOString()}`,
  );
  const points: Array<{ perPage: number; ratio: number }> = [];
  try {
    for (const { n, pad } of SHAPES) {
      await c.query('DROP TABLE IF EXISTS brin_ratio');
      await c.query('CREATE TABLE brin_ratio (id bigint NOT NULL, at timestamptz NOT NULL, pad text)');
      await c.query(
        `INSERT INTO brin_ratio SELECT g, timestamptz '2024-01-01' + g * interval '1 minute', ${pad ? `left(repeat(md5(g::text), ${Math.ceil(pad / 32)}), ${pad})` : 'NULL'} FROM generate_series(1, ${n}) g`,
      );
      await c.query('VACUUM ANALYZE brin_ratio');
      const t = (await c.query(`SELECT 'brin_ratio'::regclass::oid::int AS oid, pg_relation_size('brin_ratio')::float8 AS heap`)).rows[0] as {
        oid: number;
        heap: number;
      };
      const index = { method: 'brin' as const, concurrent: false, params: [{ column: 'at', collation: null, opclass: null }] };
      const ratios: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        await c.query('BEGIN READ ONLY');
        const sample = await sampleBrin(c, { name: 'brin_ratio', oid: t.oid, heap: t.heap, rows: n }, index, false, DEFAULT_COUNT_LIMITS.sampleBytes);
        await c.query('ROLLBACK');
        await c.query('BEGIN');
        const t0 = process.hrtime.bigint();
        await c.query('CREATE INDEX brin_ratio_at ON brin_ratio USING brin (at)');
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        await c.query('ROLLBACK');
        if (sample) ratios.push(ms / ((sample.ms * 100) / sample.percent));
      }
      const perPage = n / Math.max(1, t.heap / 8192);
      const ratio = median(ratios);
      points.push({ perPage, ratio });
      console.log(
        `${n} rows, ${pad} B of padding: ${(t.heap / 1e6).toFixed(0)} MB, ${perPage.toFixed(0)} rows a page; build / scaled sample ${ratios.map((r) => r.toFixed(2)).join(' ')} (median ${ratio.toFixed(2)})`,
      );
    }
  } finally {
    await c.end();
    await server.stop();
  }
  // Least squares through the medians: ratio = base + perLogRow x ln(rows a page) (it levels off with many rows a page).
  const xs = points.map((p) => Math.log(p.perPage));
  const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
  const my = points.reduce((s, p) => s + p.ratio, 0) / points.length;
  const slope = points.reduce((s, p, i) => s + (xs[i]! - mx) * (p.ratio - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  console.log(`fit: ratio = ${(my - slope * mx).toFixed(3)} + ${slope.toFixed(3)} x ln(rows a page); load after ${loadAverage()}`);
}

await main();
