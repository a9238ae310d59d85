/**
 * Statement splitting through the one SQL layer (packages/core/src/pg): time to parse and cut a
 * request of N statements, pure ASCII and with multibyte text. Linear means the time per
 * statement stays flat as N grows.
 *
 *   npx tsx bench/sql-split.ts
 */
import { loadavg } from 'node:os';
import { ensureParser, splitStatements } from '../packages/core/src/pg/index';

await ensureParser();
const sizes = [1_000, 10_000, 30_000, 100_000];
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, node ${process.version}`,
);
console.log('| statements | text | ms | µs per statement |');
console.log('|---|---|---|---|');
for (const [label, stmt] of [
  ['ascii', 'SELECT 1'],
  ['multibyte', "SELECT 'ünïcødé' AS x"],
] as const) {
  for (const n of sizes) {
    const sql = Array.from({ length: n }, () => stmt).join(';\n');
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const out = await splitStatements(sql);
      runs.push(performance.now() - t0);
      if (out.length !== n) throw new Error(`expected ${n} statements, got ${out.length}`);
    }
    const ms = runs.sort((a, b) => a - b)[1]!;
    console.log(`| ${n.toLocaleString('en')} | ${label} | ${ms.toFixed(0)} | ${((ms * 1000) / n).toFixed(1)} |`);
  }
}
