/**
 * The first analysis on a new connection, as a user meets it (issue #34: under 1.5 s on a large
 * real schema). A real chain is applied whole on a private PostgreSQL; then, run after run, a
 * copy of that database with one table of its own (so no clone of an earlier run can serve it)
 * is registered with a running service (local runtime, HTTP, sandbox engine `auto`, the clone
 * built after each introspection as in local mode), introspected, and the chain's probe
 * migration analyzed. Runs alternate between analysing at once after the introspection and
 * after a pause (`--pause-ms`, a user reading the schema first). The first run of the process
 * (sandbox threads and servers starting) is printed apart.
 *
 *   npx tsx bench/first-analysis.ts [--only hatchet,lemmy] [--runs 6] [--major 15] [--pause-ms 3000]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadAverage, median } from './support/run-stats';
import { startEmbeddedServer } from '../packages/core/src/analysis/sandbox/embedded/embedded-server';
import { findPgBinaries } from '../packages/core/src/analysis/sandbox/embedded/pg-binaries';
import { registerConnection } from '../test/support/connections';
import { startTestRuntime } from '../test/support/test-runtime';
import { applyScript, CHAINS, exec, openChainDatabase, withDb } from './support/migration-chains';

const { values } = parseArgs({ options: { only: { type: 'string' }, runs: { type: 'string' }, major: { type: 'string' }, 'pause-ms': { type: 'string' } } });
const RUNS = Number(values.runs ?? 6);
const MAJOR = Number(values.major ?? 15);
const PAUSE_MS = Number(values['pause-ms'] ?? 3000);
const load = loadAverage;

async function main(): Promise<void> {
  const bin = findPgBinaries(MAJOR);
  if (!bin) throw new Error(`no PostgreSQL ${MAJOR} binaries`);
  const server = await startEmbeddedServer(bin);
  // The service's debug log names each analysis's phases ('analysis phases'): kept, the rest dropped.
  const logged: Array<Record<string, number>> = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = String(chunk);
    if (!text.startsWith('{"level":"debug"')) return write(chunk, ...rest);
    for (const line of text.split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as { message?: string; phases_ms?: Record<string, number> };
      if (entry.message === 'analysis phases' && entry.phases_ms) logged.push(entry.phases_ms);
    }
    return true;
  }) as typeof process.stderr.write;
  const t = await startTestRuntime({ env: { DBOPS_SANDBOX_ENGINE: 'auto', DBOPS_SANDBOX_PREWARM: 'true', DBOPS_LOG_LEVEL: 'debug' } });
  console.log(
    `First analysis on a new connection: PostgreSQL ${bin.version}; ${os.cpus().length} cores, Node ${process.version}; load ${load()}; ${new Date().toISOString()}`,
  );
  try {
    for (const chain of CHAINS.filter((c) => !values.only || values.only.split(',').includes(c.name))) {
      const source = `first_${chain.name}`;
      const opened = await openChainDatabase(chain, server.adminUrl(), source);
      if (!opened) continue;
      for (const s of opened.scripts) await applyScript(opened.url, s);
      const apiKey = await t.apiKey(`first-${chain.name}`);
      const times = { now: [] as number[], paused: [] as number[], introspect: [] as number[] };
      for (let i = 0; i <= RUNS; i++) {
        const db = `${source}_${i}`;
        const failed = await exec(server.adminUrl(), `CREATE DATABASE ${db} TEMPLATE ${source}`);
        if (failed) throw new Error(failed);
        const url = withDb(server.adminUrl(), db);
        await exec(url, `CREATE TABLE bench_first_${i} (id int PRIMARY KEY)`);
        const connection = await registerConnection(t, `first-${chain.name}`, url, { name: db });
        const t0 = performance.now();
        const intro = await t.request('POST', `/connections/${connection.id}/introspect`, { apiKey });
        const introMs = performance.now() - t0;
        if (intro.status !== 200) throw new Error(`introspect: ${intro.status} ${intro.text}`);
        const paused = i % 2 === 0;
        if (paused) await new Promise((r) => setTimeout(r, PAUSE_MS));
        const t1 = performance.now();
        const res = await t.request('POST', `/connections/${connection.id}/migrations/analyze`, { apiKey, body: { sql: chain.probe } });
        const ms = performance.now() - t1;
        if (res.status !== 200 || !res.body.approval_token) throw new Error(`analyze: ${res.status} ${res.text.slice(0, 500)}`);
        const phases = Object.entries(logged.at(-1) ?? {})
          .filter(([, v]) => v >= 20)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');
        console.log(
          `  run ${i}${i === 0 ? ' (first of the process)' : ''}: introspect ${introMs.toFixed(0)} ms, analysis ${paused ? `after ${PAUSE_MS} ms` : 'at once'} ${ms.toFixed(0)} ms; load ${load()}\n    phases of 20 ms or more: ${phases}`,
        );
        if (i > 0) {
          times.introspect.push(introMs);
          (paused ? times.paused : times.now).push(ms);
        }
        await t.request('DELETE', `/connections/${connection.id}`, { apiKey });
        await exec(server.adminUrl(), `DROP DATABASE ${db} WITH (FORCE)`);
      }
      const line = (xs: number[]) => `p50 ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length} runs)`;
      console.log(`### ${chain.name} ("${chain.probe}"; load ${load()})`);
      console.log(`  first analysis at once after the introspection: ${line(times.now)}`);
      console.log(`  first analysis ${PAUSE_MS} ms after it:          ${line(times.paused)}`);
      console.log(`  introspection:                                  ${line(times.introspect)}`);
    }
  } finally {
    await t.close();
    await server.stop();
  }
}

// A failure ends the process with code 1 and its error printed; on success the runtime's and the
// server's handles would keep it alive.
await main();
process.exit(0);
