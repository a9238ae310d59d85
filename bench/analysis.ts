/**
 * Migration analysis throughput: the analyzer without sandbox vs squawk-cli on the same corpus
 * (statements per second, same run), and a 100-statement migration on a 200-table snapshot
 * with the PGlite sandbox, cold and warm (p50 over several runs). Prints the figures.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeMigration } from '../packages/core/src/analysis/analyze-migration';
import { parseStatements } from '../packages/core/src/analysis/parse-statements';
import { sharedSandboxCache } from '../packages/core/src/analysis/sandbox/sandbox-cache';
import { closeSandboxSpare } from '../packages/core/src/analysis/sandbox/sandbox-pool';
import { generateSchema, writeCorpus } from './migration-corpus/generate';

const FILES = Number(process.env.BENCH_FILES ?? 320);
const SANDBOX_RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 7);
const SANDBOX_IDLE_MS = Number(process.env.BENCH_SANDBOX_IDLE_MS ?? 1000);
const PASSES = Number(process.env.BENCH_PASSES ?? 7);
/** `pglite` (default: the generated snapshot is PostgreSQL 17 without extensions) or `embedded` (a private PostgreSQL 17 server). */
const ENGINE = (process.env.BENCH_SANDBOX_ENGINE ?? 'auto') as 'auto' | 'pglite' | 'embedded';

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'dbops-corpus-'));
  const { snapshot, tables } = generateSchema(200);
  const files = writeCorpus(dir, tables, FILES);
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  let statements = 0;
  for (const t of texts) statements += (await parseStatements(t)).length;

  // Warm-up, then the analyzer without sandbox (parse, locks, rules, blast radius, rollback, narrative).
  for (const t of texts.slice(0, 20)) await analyzeMigration(t, snapshot, { connectionId: 'bench', sandbox: false });
  // Whole-corpus passes, each timed: one pass is ~100 ms, so a GC pause or a JIT tier-up moves
  // a single figure by a third. Both tools report the median of PASSES passes.
  let warnings = 0;
  const ourPasses: number[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    warnings = 0;
    const t0 = performance.now();
    for (const t of texts) warnings += (await analyzeMigration(t, snapshot, { connectionId: 'bench', sandbox: false })).warnings.length;
    ourPasses.push(performance.now() - t0);
  }
  const oursMs = p50(ourPasses);

  // squawk-cli on the same files, one process for the whole corpus (its best case).
  // squawk-cli is not a project dependency: its lockfile entry breaks `npm ci` where the registry
  // lacks its other-platform packages. The bench installs it into a cache folder on first use.
  const tools = path.join(process.cwd(), 'node_modules/.cache/dbops-bench-tools');
  const squawk = path.join(tools, 'node_modules/.bin/squawk');
  if (!existsSync(squawk)) {
    execFileSync('npm', ['install', '--prefix', tools, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', 'squawk-cli@2.66.0'], { stdio: 'ignore' });
  }
  let squawkOut = '';
  const squawkPasses: number[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    const t0 = performance.now();
    try {
      squawkOut = execFileSync(squawk, ['--reporter', 'gcc', ...files], { encoding: 'utf8', maxBuffer: 1 << 28 });
    } catch (e) {
      squawkOut = String((e as { stdout?: string }).stdout ?? ''); // exits 1 when it finds violations
    }
    squawkPasses.push(performance.now() - t0);
  }
  const squawkMs = p50(squawkPasses);
  const squawkFindings = squawkOut.split('\n').filter((l) => l.includes('warning') || l.includes('error')).length;

  // 100 statements on the 200-table snapshot, sandbox included.
  const big = writeCorpus(path.join(dir, 'big'), tables, 400).map((f) => readFileSync(f, 'utf8'));
  const hundred: string[] = [];
  for (const text of big) {
    for (const s of await parseStatements(text)) {
      // Keep schema changes that succeed on any synthetic data (no data-dependent steps).
      const text = s.sql.replace(/^--[^\n]*\n/, '');
      if (
        /^(SET|BEGIN|COMMIT|DELETE|UPDATE|COMMENT|CREATE OR REPLACE FUNCTION|CREATE TRIGGER|ALTER TYPE)/i.test(text) ||
        /DROP COLUMN|RENAME|SET NOT NULL|VALIDATE|FOREIGN KEY/i.test(text)
      )
        continue;
      hundred.push(s.sql);
      if (hundred.length === 100) break;
    }
    if (hundred.length === 100) break;
  }
  const migration = `${hundred.join(';\n')};`;
  // Cold: the first analysis of a snapshot (a connection never seen, so the clone is built and
  // cached). Warm: the same snapshot again, back to back (started from the cached clone). Warm
  // after idle: with a pause between analyses, as when a user edits the migration, so the spare
  // instance is already started. The first analysis in the process (which also prepares the
  // PGlite template and the sandbox base) counts in none of them. Clones are cached in the bench
  // temp dir unless DBOPS_SANDBOX_CACHE_DIR says otherwise.
  process.env.DBOPS_SANDBOX_CACHE_DIR ??= path.join(dir, 'sandbox-cache');
  const sandboxRun = async (snap: typeof snapshot, rollbackProof = true) => {
    const s = performance.now();
    const r = await analyzeMigration(migration, snap, { connectionId: 'bench', sandbox: { engine: ENGINE }, rollbackProof });
    return {
      ms: performance.now() - s,
      sandboxMs: r.sandbox_result.duration_ms,
      passed: r.sandbox_result.passed,
      error: r.sandbox_result.migration_error,
      verified: r.rollback_plan.verified,
    };
  };
  if (SANDBOX_RUNS > 0) await sandboxRun(snapshot); // BENCH_SANDBOX_RUNS=0 skips the sandbox figures
  const cold: Awaited<ReturnType<typeof sandboxRun>>[] = [];
  const warm: typeof cold = [];
  const idle: typeof cold = [];
  const warmNoProof: typeof cold = [];
  // Interleaved, so load changes hit both alike: with the rollback proof (the default) and without.
  for (let i = 0; i < SANDBOX_RUNS; i++) {
    warm.push(await sandboxRun(snapshot));
    warmNoProof.push(await sandboxRun(snapshot, false));
  }
  for (let i = 0; i < SANDBOX_RUNS; i++) {
    await new Promise((r) => setTimeout(r, SANDBOX_IDLE_MS));
    idle.push(await sandboxRun(snapshot));
  }
  for (let i = 0; i < SANDBOX_RUNS; i++) cold.push(await sandboxRun({ ...snapshot, connection_id: `bench-cold-${process.pid}-${i}` }));
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  await sharedSandboxCache().flush();
  await closeSandboxSpare();
  rmSync(dir, { recursive: true, force: true });

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`corpus: ${files.length} files, ${statements} statements, 200-table snapshot; sandbox engine ${ENGINE}`);
  const range = (xs: number[]) => `${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))} ms`;
  console.log(
    `dbops analyzer (no sandbox), median of ${PASSES} passes: ${fmt(oursMs)} ms (${range(ourPasses)}), ${fmt((statements / oursMs) * 1000)} statements/s, ${warnings} warnings`,
  );
  console.log(
    `squawk-cli (one process per pass), median of ${PASSES}: ${fmt(squawkMs)} ms (${range(squawkPasses)}), ${fmt((statements / squawkMs) * 1000)} statements/s, ${squawkFindings} findings`,
  );
  const sandboxLine = (label: string, xs: typeof cold) =>
    `100-statement migration with sandbox, ${label}, ${xs.length} runs: p50 ${fmt(p50(xs.map((x) => x.ms)))} ms (sandbox part p50 ${fmt(p50(xs.map((x) => x.sandboxMs)))} ms), min ${fmt(Math.min(...xs.map((x) => x.ms)))} ms, passed=${xs.every((x) => x.passed)}${xs.find((x) => x.error) ? ` (${xs.find((x) => x.error)!.error})` : ''}, rollback verified=${[...new Set(xs.map((x) => x.verified))].join('/')}`;
  if (SANDBOX_RUNS > 0) {
    console.log(sandboxLine('cold (first analysis of a snapshot)', cold));
    console.log(sandboxLine('warm (same snapshot again, back to back)', warm));
    console.log(sandboxLine('warm, rollback proof off (interleaved with the line above)', warmNoProof));
    console.log(sandboxLine(`warm after ${fmt(SANDBOX_IDLE_MS)} ms idle (spare instance started)`, idle));
  }
  console.log(`load average at the end: ${load}`);
}

await main();
