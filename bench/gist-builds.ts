/**
 * What GiST and SP-GiST builds cost against the GiST build class's price (issue #32): CREATE INDEX
 * ... USING spgist and USING gist on inet, tstzrange, point and text columns of our own at two
 * sizes, in no heap order, and the share of the GiST class's price of a unit key (`randomLog`:
 * rows x log2 rows / 2e7) each build came to at the calibration machine's speed (this machine's
 * probe against the calibration's). `index-key-cost.ts` holds SP-GiST's middle share as its key
 * cost, and GiST's by type (a range's penalty and union functions cost ten times a point's, whose
 * build sorts).
 *
 *   npx tsx bench/gist-builds.ts
 */
import os from 'node:os';
import pg from 'pg';
import { CALIBRATION } from '../packages/core/src/analysis/lock-timing/calibration';
import { machineProbe } from '../packages/core/src/analysis/lock-timing/machine-probe';
import { startPg15 } from '../test/support/pg15-server';
import { loadAverage, median } from './support/run-stats';

/** Columns of our own: the value per row `g` of `n`, and the GiST operator class (null: none built in). */
const COLUMNS: Array<{ name: string; value: (n: number) => string; gist: string | null }> = [
  { name: 'inet', value: () => `inet '10.0.0.0' + (g::bigint * 2654435761) % 33554432`, gist: 'inet_ops' },
  {
    name: 'tstzrange',
    value: (n) =>
      `tstzrange(timestamptz '2024-01-01' + ((g::bigint * 7919) % ${n}) * interval '1 min', timestamptz '2024-01-01' + ((g::bigint * 7919) % ${n} + 90) * interval '1 min')`,
    gist: '',
  },
  { name: 'point', value: () => `point((g::bigint * 7919) % 10007, (g::bigint * 104729) % 10009)`, gist: '' },
  { name: 'text', value: () => `md5(g::text)`, gist: null },
];

async function main(): Promise<void> {
  const server = await startPg15();
  const c = new pg.Client({ connectionString: server.url });
  await c.connect();
  const price = CALIBRATION.classes.index_gist?.coef.randomLog ?? NaN;
  const factor = (await machineProbe(c)) / CALIBRATION.probeMs;
  console.log(
    `SP-GiST builds: ${os.cpus()[0]?.model} x${os.cpus().length}; probe ${factor.toFixed(2)}x the calibration machine; load ${loadAverage()}; ${new Date().toISOString()}`,
  );
  const shares: number[] = [];
  const gistShares = new Map<string, number[]>();
  const time = async (sql: string): Promise<number> => {
    const runs: number[] = [];
    for (let i = 0; i < 2; i++) {
      await c.query('BEGIN');
      const t0 = process.hrtime.bigint();
      await c.query(sql);
      runs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      await c.query('ROLLBACK');
    }
    return Math.min(...runs);
  };
  try {
    for (const n of [300_000, 1_000_000]) {
      for (const col of COLUMNS) {
        await c.query('DROP TABLE IF EXISTS gist_build');
        await c.query(`CREATE TABLE gist_build AS SELECT g AS id, ${col.value(n)} AS v FROM generate_series(1, ${n}) g`);
        await c.query('VACUUM ANALYZE gist_build');
        const sp = await time('CREATE INDEX gist_build_v ON gist_build USING spgist (v)');
        const gist = col.gist === null ? null : await time(`CREATE INDEX gist_build_g ON gist_build USING gist (v ${col.gist})`);
        const unit = (price * n * Math.log2(n)) / 2e7;
        const share = sp / factor / unit;
        shares.push(share);
        const gistShare = gist === null ? null : gist / factor / unit;
        if (gistShare !== null) gistShares.set(col.name, [...(gistShares.get(col.name) ?? []), gistShare]);
        console.log(
          `${n} rows of ${col.name}: SP-GiST ${sp.toFixed(0)} ms (${share.toFixed(2)} of the GiST class's price of a unit key)${gist === null ? '' : `, GiST ${gist.toFixed(0)} ms (${gistShare!.toFixed(2)})`}`,
        );
      }
    }
  } finally {
    await c.end();
    await server.stop();
  }
  console.log(`SP-GiST: median ${median(shares).toFixed(2)} (${Math.min(...shares).toFixed(2)}-${Math.max(...shares).toFixed(2)}) of the price of a unit key`);
  for (const [name, xs] of gistShares)
    console.log(`GiST on ${name}: ${xs.map((x) => x.toFixed(2)).join(', ')} (mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2)})`);
  console.log(`load after ${loadAverage()}`);
}

await main();
