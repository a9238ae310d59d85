/**
 * Where a warm analysis's time goes, phase by phase (issue #34), on a real chain's schema:
 * the chain applied whole on a private PostgreSQL, its snapshot read, then the probe migration
 * analyzed again and again through the library (sandbox engine `auto`, rollback proof included,
 * no live checks) after one warm-up; prints the median of each phase of the sandbox run and the
 * median of the analysis around it. Phases named `(ahead) ...` are the making of the spare run
 * identity the run took (off the answer's path, left out of the run's sum).
 *
 *   npx tsx bench/analysis-phases.ts [--only hatchet] [--runs 15] [--major 15] [--pause-ms 0]
 *
 * `--pause-ms`: a pause after each analysis (untimed), as a user reading the report leaves one:
 * with it the run identities made ahead are ready; without it the loop waits for them.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadAverage, median } from './support/run-stats';
import { analyzeMigrationDetailed } from '../packages/core/src/analysis/analyze-migration';
import { startEmbeddedServer } from '../packages/core/src/analysis/sandbox/embedded/embedded-server';
import { findPgBinaries } from '../packages/core/src/analysis/sandbox/embedded/pg-binaries';
import { snapshotOf } from '../test/support/schema-fidelity';
import { applyScript, CHAINS, openChainDatabase } from './support/migration-chains';

const { values } = parseArgs({ options: { only: { type: 'string' }, runs: { type: 'string' }, major: { type: 'string' }, 'pause-ms': { type: 'string' } } });
const PAUSE_MS = Number(values['pause-ms'] ?? 0);
const RUNS = Number(values.runs ?? 15);
const MAJOR = Number(values.major ?? 15);
const load = loadAverage;

async function main(): Promise<void> {
  const bin = findPgBinaries(MAJOR);
  if (!bin) throw new Error(`no PostgreSQL ${MAJOR} binaries`);
  const server = await startEmbeddedServer(bin);
  console.log(`Analysis phases: PostgreSQL ${bin.version}; ${os.cpus().length} cores, Node ${process.version}; load ${load()}; ${new Date().toISOString()}`);
  try {
    for (const chain of CHAINS.filter((c) => !values.only || values.only.split(',').includes(c.name))) {
      const opened = await openChainDatabase(chain, server.adminUrl(), `phases_${chain.name}`);
      if (!opened) continue;
      for (const s of opened.scripts) await applyScript(opened.url, s);
      const snapshot = await snapshotOf(opened.url);
      const totals: number[] = [];
      const byPhase = new Map<string, number[]>();
      for (let i = 0; i <= RUNS; i++) {
        const t0 = performance.now();
        const a = await analyzeMigrationDetailed(chain.probe, snapshot, { connectionId: 'bench', sandbox: { engine: 'auto' } });
        const total = performance.now() - t0;
        if (PAUSE_MS > 0) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        if (i === 0) continue;
        totals.push(total);
        let inSandbox = 0;
        for (const [name, ms] of a.sandboxPhases) {
          byPhase.set(name, [...(byPhase.get(name) ?? []), ms]);
          // A spare's making, reported by the run that took it, was spent before the run began.
          if (!name.startsWith('(ahead)')) inSandbox += ms;
        }
        byPhase.set('(outside the sandbox run)', [...(byPhase.get('(outside the sandbox run)') ?? []), total - inSandbox]);
      }
      console.log(
        `### ${chain.name}: ${snapshot.tables.length} relations; "${chain.probe}", ${RUNS} warm runs${PAUSE_MS ? ` (${PAUSE_MS} ms apart)` : ''}: p50 ${median(totals).toFixed(0)} ms; load ${load()}`,
      );
      for (const [name, xs] of byPhase)
        console.log(
          `  ${name.padEnd(28)} p50 ${median(xs).toFixed(0).padStart(5)} ms   max ${Math.max(...xs)
            .toFixed(0)
            .padStart(5)} ms`,
        );
    }
  } finally {
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
