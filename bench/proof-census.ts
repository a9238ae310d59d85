/**
 * What the rollback proof's reading after the round trip costs on a real chain's schema (issue
 * #34): the whole schema fingerprint (as every proof read it before), against the catalog census
 * plus the fingerprint of the owners a one-column round trip touched (the proof's path when the
 * census allows it). The chain applied whole on a private PostgreSQL, then both readings
 * alternated on the same database, so machine load hits both alike; p50 and min.
 *
 *   npx tsx bench/proof-census.ts [--only hatchet] [--runs 9] [--major 15]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmbeddedServer } from '../packages/core/src/analysis/sandbox/embedded/embedded-server';
import { findPgBinaries } from '../packages/core/src/analysis/sandbox/embedded/pg-binaries';
import { pgSession } from '../packages/core/src/analysis/sandbox/pg-session';
import { readProofBaseline, roundTripStart, runRollbackRoundTrip } from '../packages/core/src/analysis/sandbox/rollback-round-trip';
import { readSchemaFingerprint } from '../packages/core/src/analysis/schema-compare/schema-compare';
import { quoteIdent } from '../packages/core/src/pg/quote';
import { applyScript, CHAINS, openChainDatabase } from './support/migration-chains';

const { values } = parseArgs({ options: { only: { type: 'string' }, runs: { type: 'string' }, major: { type: 'string' } } });
const RUNS = Number(values.runs ?? 9);
const MAJOR = Number(values.major ?? 15);
const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const load = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const bin = findPgBinaries(MAJOR);
if (!bin) throw new Error(`no PostgreSQL ${MAJOR} binaries`);
const server = await startEmbeddedServer(bin);
console.log(`Proof readings: PostgreSQL ${bin.version}; ${os.cpus().length} cores, Node ${process.version}; load ${load()}; ${new Date().toISOString()}`);
try {
  for (const chain of CHAINS.filter((c) => !values.only || values.only.split(',').includes(c.name))) {
    const opened = await openChainDatabase(chain, server.adminUrl(), `census_${chain.name}`);
    if (!opened) continue;
    for (const s of opened.scripts) await applyScript(opened.url, s);
    const c = new pg.Client({ connectionString: opened.url });
    await c.connect();
    const session = pgSession(c);
    const baseline = await readProofBaseline(session);
    const table = (
      await c.query<{ t: string }>(`SELECT n.nspname || '.' || c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = 'public' ORDER BY c.relname LIMIT 1`)
    ).rows[0]!.t;
    const [schema, name] = table.split('.') as [string, string];
    const target = `${quoteIdent(schema)}.${quoteIdent(name)}`;
    const full: number[] = [];
    const scoped: number[] = [];
    let reread = 0;
    for (let k = 0; k < RUNS; k++) {
      let t0 = performance.now();
      await readSchemaFingerprint((q) => c.query(q));
      full.push(performance.now() - t0);
      // The round trip itself (add a column, drop it) is outside the timing: only the reading after it.
      const since = await roundTripStart(session);
      await c.query(`ALTER TABLE ${target} ADD COLUMN bench_probe text`);
      await c.query(`ALTER TABLE ${target} DROP COLUMN bench_probe`);
      t0 = performance.now();
      const proof = await runRollbackRoundTrip(session, { script: 'SELECT 1' }, baseline, new Map(), 150000, since);
      scoped.push(performance.now() - t0);
      reread = proof.compared.reread ?? NaN;
      if (proof.differences.length) throw new Error(`unexpected differences: ${proof.differences.length}`);
    }
    console.log(
      `### ${chain.name}: ${baseline.fingerprint.size} objects; ${RUNS} alternated runs; load ${load()}\n` +
        `  whole fingerprint              p50 ${p50(full).toFixed(0)} ms (min ${Math.min(...full).toFixed(0)})\n` +
        `  census + touched objects      p50 ${p50(scoped).toFixed(0)} ms (min ${Math.min(...scoped).toFixed(0)}), ${reread} objects read again`,
    );
    await c.end();
  }
} finally {
  await server.stop();
}
