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
import { mkdir, readdir, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Plugin } from 'esbuild';
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
  cpuMs: number[];
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

/**
 * Imports the bundle in a fresh process; returns [import wall ms, ms since the process started,
 * CPU ms spent importing]. CPU time is the steadier figure on a busy machine.
 */
async function coldInit(bundle: string): Promise<[number, number, number]> {
  const script = `
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const m = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    if (typeof m.handler !== 'function') { console.error('no handler export'); process.exit(2); }
    console.log(JSON.stringify({ importMs: t1 - t0, sinceStart: t1, cpuMs: (c1.user + c1.system) / 1000 }));
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
  const parsed = JSON.parse(stdout.trim().split('\n').pop()!) as { importMs: number; sinceStart: number; cpuMs: number };
  return [parsed.importMs, parsed.sinceStart, parsed.cpuMs];
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
  const row: Row = { ...entry, ok: false, bytes: 0, installBytes: 0, heavy: [], missing: [], initMs: [], processMs: [], cpuMs: [], top: '' };
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
      const [importMs, sinceStart, cpuMs] = await coldInit(outfile);
      row.initMs.push(importMs);
      row.processMs.push(sinceStart);
      row.cpuMs.push(cpuMs);
    }
    row.ok = row.missing.length === 0;
    if (!row.ok) row.error = `imports ${row.missing.join(', ')} without shipping it`;
  } catch (error) {
    row.error = String((error as Error).message ?? error)
      .split('\n')[0]!
      .slice(0, 200);
  }
  return row;
}

const mb = (b: number): string => (b / 1024 / 1024).toFixed(2);

function verdict(r: Row): string {
  if (r.error) return `FAIL: ${r.error}`;
  const misses: string[] = [];
  if (r.bytes > SIZE_LIMIT) misses.push('bundle > 5 MB');
  if (!r.needsHeavy && median(r.initMs) > INIT_LIMIT_MS) misses.push('init > 300 ms');
  if (!r.needsHeavy && median(r.cpuMs) > INIT_LIMIT_MS) misses.push('init CPU > 300 ms');
  const needless = r.heavy.filter((h) => h === '@electric-sql/pglite' && !r.needsHeavy);
  if (needless.length > 0) misses.push('loads PGlite it does not use');
  return misses.length ? `MISS: ${misses.join('; ')}` : 'ok';
}

/**
 * What-if: the same function with PGlite replaced by an empty stand-in, i.e. what the cold
 * import would cost once the container loads PGlite lazily (docs/deploy.md, "Bundles").
 */
const withoutPglite: Plugin = {
  name: 'stub-pglite',
  setup(b) {
    b.onResolve({ filter: /^@electric-sql\/pglite(\/.*)?$/ }, (args) => ({ path: args.path, namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export class PGlite {}; export const vector = {}; export default {};', loader: 'js' }));
  },
};

async function whatIf(entry: Entry): Promise<[number, number] | string> {
  const dir = path.join(OUT, `whatif-${entry.name.replace(/[^a-z0-9-]/gi, '_')}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    const outfile = path.join(dir, 'index.mjs');
    await bundleEntry(entry.file, { root: ROOT, outfile, plugins: [withoutPglite] });
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const [w, , c] = await coldInit(outfile);
      wall.push(w);
      cpu.push(c);
    }
    return [median(wall), median(cpu)];
  } catch (error) {
    return `failed: ${String((error as Error).message)
      .split('\n')[0]!
      .slice(0, 120)}`;
  }
}

/** Import of an empty module: what a fresh process costs on this machine under its current load. */
async function baseline(): Promise<number> {
  const file = path.join(OUT, 'baseline', 'index.mjs');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'export const handler = async () => ({ statusCode: 200 });\n');
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push((await coldInit(file))[0]);
  return median(times);
}

async function main(): Promise<void> {
  const markdown = process.argv.includes('--markdown');
  await mkdir(OUT, { recursive: true });
  const base = await baseline();
  const rows: Row[] = [];
  for (const entry of entries()) {
    rows.push(await measure(entry));
    if (!markdown) process.stderr.write(`measured ${entry.name}\n`);
  }

  const header =
    '| function | bundle MB | shipped packages | packages MB | heavy imported | cold import ms (median) | import CPU ms (median) | process ms (median) | largest inputs | verdict |';
  const lines = [header, '|---|---|---|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${mb(r.bytes)} | ${r.install.join(', ') || '-'} | ${mb(r.installBytes)} | ${r.heavy.join(', ') || '-'} | ${r.initMs.length ? median(r.initMs).toFixed(0) : '-'} | ${r.cpuMs.length ? median(r.cpuMs).toFixed(0) : '-'} | ${r.processMs.length ? median(r.processMs).toFixed(0) : '-'} | ${r.top || '-'} | ${verdict(r)} |`,
    );
  }
  const whatIfLines: string[] = [];
  for (const name of ['health', 'billing-balance', 'authorizer:api-key-or-jwt', 'connections-list']) {
    const entry = rows.find((r) => r.name === name && r.ok);
    if (!entry) continue;
    const ms = await whatIf(entry);
    const after = typeof ms === 'string' ? `${ms} | -` : `${ms[0].toFixed(0)} | ${ms[1].toFixed(0)}`;
    whatIfLines.push(`| ${name} | ${median(entry.initMs).toFixed(0)} | ${median(entry.cpuMs).toFixed(0)} | ${after} |`);
  }
  const measured = rows.filter((r) => r.ok);
  const light = measured.filter((r) => !r.needsHeavy);
  const summary = [
    `functions: ${rows.length}, bundled: ${measured.length}, failed: ${rows.length - measured.length}`,
    `largest bundle: ${mb(Math.max(0, ...measured.map((r) => r.bytes)))} MB (limit 5 MB)`,
    `baseline: importing an empty module in a fresh process takes ${base.toFixed(1)} ms here`,
    `machine load while measuring (1-min load average): ${loadavg()[0]!.toFixed(1)} on 2 cores`,
    `cold import of functions that need no parser/PGlite/pdf.js: wall median ${median(light.map((r) => median(r.initMs))).toFixed(0)} ms, max ${Math.max(0, ...light.map((r) => median(r.initMs))).toFixed(0)} ms; CPU median ${median(light.map((r) => median(r.cpuMs))).toFixed(0)} ms, max ${Math.max(0, ...light.map((r) => median(r.cpuMs))).toFixed(0)} ms (target < 300 ms)`,
  ];
  if (markdown) {
    console.log(`## Lambda bundles and cold init (issue #12)\n`);
    console.log(
      `Command: \`npx tsx bench/bundle-size.ts --markdown\` (${RUNS} fresh Node ${process.version} processes per function; machine: 2 cores, 24 GiB; 2026-11-22).`,
    );
    console.log(
      `Bundled like SST: esbuild ESM, target node22, minified, AWS SDK bundled; \`libpg-query\`, \`@electric-sql/pglite\` and \`pdfjs-dist\` external and shipped via \`nodejs.install\` ("packages MB", unzipped). "cold import" is \`await import(bundle)\` only; "process ms" adds Node's own start.\n`,
    );
    console.log(lines.join('\n'));
    console.log('');
    for (const s of summary) console.log(`- ${s}`);
    console.log(
      '\nWhat-if: the same bundles with PGlite replaced by an empty stand-in (cold import ms, median), i.e. once the container stops importing PGlite at module level:\n',
    );
    console.log('| function | as deployed: wall ms | CPU ms | without PGlite: wall ms | CPU ms |\n|---|---|---|---|---|');
    console.log(whatIfLines.join('\n'));
  } else {
    console.log(lines.join('\n'));
    for (const s of summary) console.log(s);
    console.log('what-if without PGlite (as deployed ms | without ms):');
    console.log(whatIfLines.join('\n'));
  }
  if (rows.some((r) => r.missing.length > 0 || (r.error && r.error !== 'module does not exist yet'))) process.exitCode = 1;
}

await main();
