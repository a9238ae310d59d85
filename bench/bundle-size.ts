/**
 * Bundle size and cold initialization of every Lambda function, bundled the way SST deploys it
 * (infra/bundle.ts: esbuild, ESM, node22, minified, AWS SDK bundled, heavy packages shipped
 * through `nodejs.install`). Cold init = importing the bundled module in a fresh Node process
 * (median of RUNS processes), with the installed heavy packages next to it as on Lambda.
 *
 *   npx tsx bench/bundle-size.ts            # table on stdout
 *   npx tsx bench/bundle-size.ts --markdown # the docs/benchmarks.md section
 *
 * Exit code 1 when a bundle fails or imports a heavy package its function does not ship.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, realpath, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { bundleEntry } from '../infra/bundle';
import {
  AUTHORIZER_MODULES,
  type AuthorizerName,
  DEPLOY_MIGRATE_MODULE,
  EXECUTOR_MODULE,
  type HeavyPackage,
  installFor,
  PARSER_HANDLERS,
  PDF_HANDLERS,
  planFunctions,
} from '../infra/route-plan';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(tmpdir(), 'dbops-bundles');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SIZE_LIMIT = 5 * 1024 * 1024;
const INIT_LIMIT_MS = 300;

interface Entry {
  name: string;
  file: string;
  install: HeavyPackage[];
  /** Needs the parser, PGlite or pdf.js for its own work (exempt from the 300 ms target). */
  needsHeavy: boolean;
}

interface Row extends Entry {
  ok: boolean;
  error?: string;
  bytes: number;
  installBytes: number;
  heavy: HeavyPackage[];
  missing: HeavyPackage[];
  initMs: number[];
  processMs: number[];
  top: string;
}

async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await dirBytes(p);
    else if (entry.isFile()) total += (await stat(p)).size;
  }
  return total;
}

const packageDir = (pkg: string): Promise<string> => realpath(path.join(ROOT, 'node_modules', pkg));

function entries(): Entry[] {
  const list: Entry[] = planFunctions().map((f) => ({
    name: f.handlerName,
    file: f.handlerFile,
    install: f.install,
    needsHeavy: PARSER_HANDLERS.includes(f.handlerName) || PDF_HANDLERS.includes(f.handlerName),
  }));
  for (const [name, file] of Object.entries(AUTHORIZER_MODULES) as [AuthorizerName, string][]) {
    list.push({ name: `authorizer:${name}`, file, install: installFor(name), needsHeavy: false });
  }
  list.push({ name: 'executor', file: EXECUTOR_MODULE, install: installFor('executor'), needsHeavy: true });
  list.push({ name: 'deploy-migrate', file: DEPLOY_MIGRATE_MODULE, install: installFor('deploy-migrate'), needsHeavy: false });
  return list;
}

/** Imports the bundle in a fresh process; returns [import ms, ms since the process started]. */
async function coldInit(bundle: string): Promise<[number, number]> {
  const script = `
    const t0 = performance.now();
    const m = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const t1 = performance.now();
    if (typeof m.handler !== 'function') { console.error('no handler export'); process.exit(2); }
    console.log(JSON.stringify({ importMs: t1 - t0, sinceStart: t1 }));
    process.exit(0);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: path.dirname(bundle),
    env: {
      PATH: process.env.PATH,
      DBOPS_MODE: 'cloud',
      DBOPS_HOME: path.join(OUT, 'home'),
      DBOPS_LOG_LEVEL: 'silent',
      DBOPS_DATABASE_URL: 'postgresql://dbops@127.0.0.1:1/dbops',
      DBOPS_MIGRATE_ON_START: 'false',
      DBOPS_JWT_ISSUER: 'https://issuer.invalid',
      DBOPS_JWT_AUDIENCE: 'dbops',
      DBOPS_JWT_JWKS_URL: 'https://issuer.invalid/.well-known/jwks.json',
      AWS_REGION: 'eu-west-1',
    },
    timeout: 60_000,
  });
  const parsed = JSON.parse(stdout.trim().split('\n').pop()!) as { importMs: number; sinceStart: number };
  return [parsed.importMs, parsed.sinceStart];
}

const median = (xs: number[]): number => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function measure(entry: Entry): Promise<Row> {
  const dir = path.join(OUT, entry.name.replace(/[^a-z0-9-]/gi, '_'));
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'node_modules', '@electric-sql'), { recursive: true });
  const row: Row = { ...entry, ok: false, bytes: 0, installBytes: 0, heavy: [], missing: [], initMs: [], processMs: [], top: '' };
  if (!existsSync(path.join(ROOT, entry.file))) {
    row.error = 'module does not exist yet';
    return row;
  }
  try {
    const outfile = path.join(dir, 'index.mjs');
    const result = await bundleEntry(entry.file, { root: ROOT, outfile });
    row.bytes = result.bytes;
    row.heavy = result.heavy;
    row.missing = result.heavy.filter((h) => !entry.install.includes(h));
    row.top = result.topInputs
      .slice(0, 3)
      .map((t) => `${t.name} ${(t.bytes / 1024).toFixed(0)}K`)
      .join(', ');
    // Ship what SST's `nodejs.install` would: the listed heavy packages, next to the bundle.
    for (const pkg of entry.install) {
      const real = await packageDir(pkg);
      row.installBytes += await dirBytes(real);
      await symlink(real, path.join(dir, 'node_modules', pkg));
    }
    for (let i = 0; i < RUNS; i++) {
      const [importMs, sinceStart] = await coldInit(outfile);
      row.initMs.push(importMs);
      row.processMs.push(sinceStart);
    }
    row.ok = row.missing.length === 0;
    if (!row.ok) row.error = `imports ${row.missing.join(', ')} without shipping it`;
  } catch (error) {
    row.error = String((error as Error).message ?? error).split('\n')[0]!.slice(0, 200);
  }
  return row;
}

const mb = (b: number): string => (b / 1024 / 1024).toFixed(2);

function verdict(r: Row): string {
  if (r.error) return `FAIL: ${r.error}`;
  const misses: string[] = [];
  if (r.bytes > SIZE_LIMIT) misses.push('bundle > 5 MB');
  if (!r.needsHeavy && median(r.initMs) > INIT_LIMIT_MS) misses.push('init > 300 ms');
  const needless = r.heavy.filter((h) => h === '@electric-sql/pglite' && !r.needsHeavy);
  if (needless.length > 0) misses.push('loads PGlite it does not use');
  return misses.length ? `MISS: ${misses.join('; ')}` : 'ok';
}

async function main(): Promise<void> {
  const markdown = process.argv.includes('--markdown');
  await mkdir(OUT, { recursive: true });
  const rows: Row[] = [];
  for (const entry of entries()) {
    rows.push(await measure(entry));
    if (!markdown) process.stderr.write(`measured ${entry.name}\n`);
  }

  const header = '| function | bundle MB | shipped packages | packages MB | heavy imported | cold import ms (median) | process ms (median) | largest inputs | verdict |';
  const lines = [header, '|---|---|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${mb(r.bytes)} | ${r.install.join(', ') || '-'} | ${mb(r.installBytes)} | ${r.heavy.join(', ') || '-'} | ${r.initMs.length ? median(r.initMs).toFixed(0) : '-'} | ${r.processMs.length ? median(r.processMs).toFixed(0) : '-'} | ${r.top || '-'} | ${verdict(r)} |`,
    );
  }
  const measured = rows.filter((r) => r.ok);
  const light = measured.filter((r) => !r.needsHeavy);
  const summary = [
    `functions: ${rows.length}, bundled: ${measured.length}, failed: ${rows.length - measured.length}`,
    `largest bundle: ${mb(Math.max(0, ...measured.map((r) => r.bytes)))} MB (limit 5 MB)`,
    `cold import of functions that need no parser/PGlite/pdf.js: median ${median(light.map((r) => median(r.initMs))).toFixed(0)} ms, max ${Math.max(0, ...light.map((r) => median(r.initMs))).toFixed(0)} ms (target < 300 ms)`,
  ];
  if (markdown) {
    console.log(`## Lambda bundles and cold init (issue #12)\n`);
    console.log(`Command: \`npx tsx bench/bundle-size.ts --markdown\` (${RUNS} fresh Node ${process.version} processes per function; machine: 2 cores, 24 GiB; 2026-11-22).`);
    console.log(`Bundled like SST: esbuild ESM, target node22, minified, AWS SDK bundled; \`libpg-query\`, \`@electric-sql/pglite\` and \`pdfjs-dist\` external and shipped via \`nodejs.install\` ("packages MB", unzipped). "cold import" is \`await import(bundle)\` only; "process ms" adds Node's own start.\n`);
    console.log(lines.join('\n'));
    console.log('');
    for (const s of summary) console.log(`- ${s}`);
  } else {
    console.log(lines.join('\n'));
    for (const s of summary) console.log(s);
  }
  if (rows.some((r) => r.missing.length > 0 || (r.error && r.error !== 'module does not exist yet'))) process.exitCode = 1;
}

await main();
