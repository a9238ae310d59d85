/**
 * Do real migration chains get tokens? For each project, its migration chain is applied on a
 * real PostgreSQL of the chosen major version; before each of the last N migrations the live
 * schema is introspected and the migration analyzed through the service's HTTP API (the local
 * runtime, sandbox engine `auto`: PGlite only when the target is 17 without extensions it lacks,
 * else a private PostgreSQL of the target's version); then the migration is applied. Counted:
 * migrations PostgreSQL applies that get a token, and migrations it rejects that are refused.
 * At the end, warm analyses of a small migration on the full schema give the p50 latency.
 *
 *   npx tsx bench/migration-chain-tokens.ts [--only lemmy,documenso,pagila] [--last 40] [--major 15] [--why]
 *
 * The chains (bench/support/migration-chains.ts: lemmy, documenso, pagila, hatchet, storage) are
 * read from git mirrors of the public repositories (never copied into this one), under
 * /work/.mirror (`DBOPS_MIRROR_DIR`).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { startEmbeddedServer } from '../packages/core/src/analysis/sandbox/embedded/embedded-server';
import { findPgBinaries } from '../packages/core/src/analysis/sandbox/embedded/pg-binaries';
import { registerConnection } from '../test/support/connections';
import { startTestRuntime } from '../test/support/test-runtime';
import { applyScript, CHAINS, openChainDatabase } from './support/migration-chains';

const { values } = parseArgs({
  options: { only: { type: 'string' }, last: { type: 'string' }, major: { type: 'string' }, warm: { type: 'string' }, why: { type: 'boolean' } },
});
const LAST = Number(values.last ?? 40);
const MAJOR = Number(values.major ?? 15);
const WARM_RUNS = Number(values.warm ?? 15);

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const bin = findPgBinaries(MAJOR);
if (!bin) {
  console.log(`migration chain bench skipped: no PostgreSQL ${MAJOR} binaries`);
  process.exit(0);
}
const target = await startEmbeddedServer(bin);
const t = await startTestRuntime({ env: { DBOPS_SANDBOX_ENGINE: 'auto' } });
console.log(
  `Migration chain tokens: target PostgreSQL ${bin.version} (${bin.source}); ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${new Date().toISOString()}`,
);
try {
  for (const chain of CHAINS) {
    if (values.only && !values.only.split(',').includes(chain.name)) continue;
    const opened = await openChainDatabase(chain, target.adminUrl(), `chain_${chain.name}`);
    if (!opened) continue;
    const { commit, url, scripts } = opened;
    const head = scripts.slice(0, Math.max(0, scripts.length - LAST));
    let refusedEarly = 0;
    for (const s of head) if (await applyScript(url, s)) refusedEarly++;
    const user = `chain-${chain.name}`;
    const connection = await registerConnection(t, user, url, { name: chain.name });
    const apiKey = await t.apiKey(user);
    const counts = { appliedToken: 0, appliedRefused: 0, rejectedRefused: 0, rejectedToken: 0 };
    const misses: string[] = [];
    const durations: number[] = [];
    for (const s of scripts.slice(head.length)) {
      const { sql } = s;
      const intro = await t.request('POST', `/connections/${connection.id}/introspect`, { apiKey });
      if (intro.status >= 300) throw new Error(`introspect failed: ${intro.status} ${intro.text}`);
      const t0 = performance.now();
      const res = await t.request('POST', `/connections/${connection.id}/migrations/analyze`, { apiKey, body: { sql } });
      durations.push(performance.now() - t0);
      const token = res.status === 200 && typeof res.body.approval_token === 'string';
      const why =
        res.status === 200
          ? (res.body.sandbox_result?.migration_error ?? res.body.sandbox_result?.validation_results?.find((v: { passed: boolean }) => !v.passed)?.detail)
          : `${res.status} ${res.text.slice(0, 200)}`;
      const applyError = await applyScript(url, s);
      if (!applyError && token) counts.appliedToken++;
      else if (!applyError) {
        counts.appliedRefused++;
        misses.push(`${s.label}: applied by PostgreSQL, refused: ${why}`);
      } else if (!token) {
        counts.rejectedRefused++;
        if (values.why) misses.push(`${s.label}: rejected by PostgreSQL (${applyError}); refused: ${String(why).slice(0, 240)}`);
      } else {
        counts.rejectedToken++;
        misses.push(`${s.label}: rejected by PostgreSQL (${applyError}), yet got a token`);
      }
    }
    const applied = counts.appliedToken + counts.appliedRefused;
    const rejected = counts.rejectedRefused + counts.rejectedToken;
    console.log(
      `### ${chain.name} (${chain.repo} @ ${commit}): ${scripts.length} migrations, first ${head.length} applied directly (${refusedEarly} rejected), last ${scripts.length - head.length} analyzed`,
    );
    console.log(`applied by PostgreSQL ${bin.major}: ${applied}, of which got a token: ${counts.appliedToken}`);
    console.log(`rejected by PostgreSQL ${bin.major}: ${rejected}, of which refused: ${counts.rejectedRefused}`);
    console.log(
      `analysis per migration (introspected just before, new clone each time): p50 ${p50(durations).toFixed(0)} ms, max ${Math.max(...durations).toFixed(0)} ms`,
    );
    for (const m of misses) console.log(`  ${m}`);
    // Warm: the same snapshot, a small migration again and again (clone cached).
    await t.request('POST', `/connections/${connection.id}/introspect`, { apiKey });
    const warm: number[] = [];
    let passed = 0;
    for (let i = 0; i <= WARM_RUNS; i++) {
      const t0 = performance.now();
      const res = await t.request('POST', `/connections/${connection.id}/migrations/analyze`, { apiKey, body: { sql: chain.probe } });
      if (i > 0) warm.push(performance.now() - t0);
      if (res.body?.sandbox_result?.passed) passed++;
      if (i === 0)
        console.log(
          `warm-up (clone built): ${(performance.now() - t0).toFixed(0)} ms, engine: ${res.body?.sandbox_result?.validation_results?.find((v: { check: string }) => v.check === 'engine')?.detail ?? 'PGlite'}`,
        );
    }
    console.log(
      `warm analysis of "${chain.probe}" on the full schema: p50 ${p50(warm).toFixed(0)} ms over ${WARM_RUNS} runs (${passed - 1 >= 0 ? passed : 0} of ${WARM_RUNS + 1} passed)`,
    );
  }
} finally {
  await t.close();
  await target.stop();
}
