/**
 * Migration analysis throughput: the analyzer without sandbox vs squawk-cli on the same corpus
 * (statements per second, same run), and a 100-statement migration on a 200-table snapshot
 * with the PGlite sandbox (p50 over several runs). Prints the figures.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeMigration } from '../packages/core/src/analysis/analyze-migration';
import { parseStatements } from '../packages/core/src/analysis/parse-statements';
import { closeSandboxSpare } from '../packages/core/src/sandbox/sandbox-pool';
import { generateSchema, writeCorpus } from './migration-corpus/generate';

const FILES = Number(process.env.BENCH_FILES ?? 320);
const SANDBOX_RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 7);

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
  let t0 = performance.now();
  let warnings = 0;
  for (const t of texts) warnings += (await analyzeMigration(t, snapshot, { connectionId: 'bench', sandbox: false })).warnings.length;
  const oursMs = performance.now() - t0;

  // squawk-cli on the same files, one process for the whole corpus (its best case).
  // squawk-cli is not a project dependency: its lockfile entry breaks `npm ci` where the registry
  // lacks its other-platform packages. The bench installs it into a cache folder on first use.
  const tools = path.join(process.cwd(), 'node_modules/.cache/dbops-bench-tools');
  const squawk = path.join(tools, 'node_modules/.bin/squawk');
  if (!existsSync(squawk)) {
    execFileSync('npm', ['install', '--prefix', tools, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', 'squawk-cli@2.66.0'], { stdio: 'ignore' });
  }
  t0 = performance.now();
  let squawkOut = '';
  try {
    squawkOut = execFileSync(squawk, ['--reporter', 'gcc', ...files], { encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (e) {
    squawkOut = String((e as { stdout?: string }).stdout ?? ''); // exits 1 when it finds violations
  }
  const squawkMs = performance.now() - t0;
  const squawkFindings = squawkOut.split('\n').filter((l) => l.includes('warning') || l.includes('error')).length;

  // 100 statements on the 200-table snapshot, sandbox included.
  const big = writeCorpus(path.join(dir, 'big'), tables, 400).map((f) => readFileSync(f, 'utf8'));
  const hundred: string[] = [];
  for (const text of big) {
    for (const s of await parseStatements(text)) {
      // Keep schema changes that succeed on any synthetic data (no data-dependent steps).
      const text = s.sql.replace(/^--[^\n]*\n/, '');
      if (/^(SET|BEGIN|COMMIT|DELETE|UPDATE|COMMENT|CREATE OR REPLACE FUNCTION|CREATE TRIGGER|ALTER TYPE)/i.test(text) || /DROP COLUMN|RENAME|SET NOT NULL|VALIDATE|FOREIGN KEY/i.test(text)) continue;
      hundred.push(s.sql);
      if (hundred.length === 100) break;
    }
    if (hundred.length === 100) break;
  }
  const migration = `${hundred.join(';\n')};`;
  const runs: number[] = [];
  const sandboxRuns: number[] = [];
  let lastPassed = false;
  let lastError: string | null = null;
  for (let i = 0; i < SANDBOX_RUNS; i++) {
    const s = performance.now();
    const r = await analyzeMigration(migration, snapshot, { connectionId: 'bench' });
    runs.push(performance.now() - s);
    sandboxRuns.push(r.sandbox_result.duration_ms);
    lastPassed = r.sandbox_result.passed;
    lastError = r.sandbox_result.migration_error;
  }
  await closeSandboxSpare();
  rmSync(dir, { recursive: true, force: true });

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`corpus: ${files.length} files, ${statements} statements, 200-table snapshot`);
  console.log(`dbops analyzer (no sandbox): ${fmt(oursMs)} ms, ${fmt((statements / oursMs) * 1000)} statements/s, ${warnings} warnings`);
  console.log(`squawk-cli (one process):    ${fmt(squawkMs)} ms, ${fmt((statements / squawkMs) * 1000)} statements/s, ${squawkFindings} findings`);
  console.log(`100-statement migration with sandbox, ${SANDBOX_RUNS} runs: p50 ${fmt(p50(runs))} ms (sandbox part p50 ${fmt(p50(sandboxRuns))} ms), min ${fmt(Math.min(...runs))} ms, passed=${lastPassed}${lastError ? ` (${lastError})` : ''}`);
}

await main();
