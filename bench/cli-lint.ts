/**
 * `dbops lint` vs `squawk` as whole processes (start, lint, exit) on a real project's migrations
 * directory, plus squawk parity: every (file, rule) squawk raises that dbops does not, each
 * either explained (see docs/cli.md, "Where dbops and squawk differ") or listed as unexplained.
 *
 * Inputs (nothing is copied into the repository):
 *   BENCH_MIGRATIONS  a directory of .sql files; default: lemmy's `migrations/` extracted from
 *                     the mirror at /work/.mirror/LemmyNet+lemmy/repo (fetch github:LemmyNet/lemmy)
 *   BENCH_GLOB        files to lint inside it (default `** /up.sql` without the space)
 *   SQUAWK_BIN        squawk's npm launcher (default /tmp/squawk/node_modules/.bin/squawk; install
 *                     it outside the project: npm i --prefix /tmp/squawk squawk-cli)
 *   BENCH_RUNS        timed runs per command (default 15), alternated, median and p90 reported
 *   BENCH_KEEP_CA     with NODE_EXTRA_CA_CERTS set, 1 times the commands with it (default: without).
 *                     Node 20 reads the extra certificates and builds a root store when every
 *                     process starts, dbops, the floor and squawk's launcher alike: about 50 ms on
 *                     a 2-core VM (416M of the 500M instructions of `node -e 0`), which no user
 *                     without the variable pays and which makes every ratio below look smaller.
 *
 * Beside the two tools it times a parser floor (bench/support/parse-floor-entry.ts, bundled like
 * the CLI): Node's start plus libpg-query parsing the same files (those named like the glob's last
 * segment), nothing else.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { nodeBody, nodeKind, rangeVarName } from '../packages/core/src/analysis/ast';
import { parseStatements, type ParsedStatement } from '../packages/core/src/analysis/parse-statements';
import { buildCli } from '../packages/cli/build/build';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const GLOB = process.env.BENCH_GLOB ?? '**/up.sql';
const SQUAWK = process.env.SQUAWK_BIN ?? '/tmp/squawk/node_modules/.bin/squawk';
const LEMMY = '/work/.mirror/LemmyNet+lemmy/repo';

function migrationsDir(): { dir: string; cleanup(): void; source: string } {
  if (process.env.BENCH_MIGRATIONS) return { dir: process.env.BENCH_MIGRATIONS, cleanup: () => {}, source: process.env.BENCH_MIGRATIONS };
  if (!existsSync(LEMMY)) throw new Error(`set BENCH_MIGRATIONS, or mirror lemmy to ${LEMMY}`);
  const tmp = mkdtempSync(path.join(tmpdir(), 'dbops-bench-lemmy-'));
  execFileSync('sh', ['-c', `git --git-dir=${LEMMY} archive HEAD migrations | tar -x -C ${tmp}`]);
  const commit = execFileSync('git', ['--git-dir', LEMMY, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  return { dir: path.join(tmp, 'migrations'), cleanup: () => rmSync(tmp, { recursive: true, force: true }), source: `LemmyNet/lemmy@${commit} migrations/` };
}

const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

const TIME = '/usr/bin/time';

/** The environment the timed commands run in: without NODE_EXTRA_CA_CERTS unless BENCH_KEEP_CA=1. */
const TIMED_ENV: NodeJS.ProcessEnv = { ...process.env };
if (process.env.BENCH_KEEP_CA !== '1') delete TIMED_ENV.NODE_EXTRA_CA_CERTS;

/** Wall time of the whole process, and its CPU time (user + system) when /usr/bin/time exists: under load, CPU time says more. */
function time(cmd: string, args: string[], cwd: string): { wall: number; cpu: number } {
  const timed = existsSync(TIME);
  const t0 = process.hrtime.bigint();
  const r = timed
    ? spawnSync(TIME, ['-f', '%U %S', cmd, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: TIMED_ENV })
    : spawnSync(cmd, args, { cwd, stdio: 'ignore', env: TIMED_ENV });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
  const m = timed ? /([\d.]+) ([\d.]+)\s*$/.exec(String(r.stderr)) : null;
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN };
}

interface Pair {
  file: string;
  rule: string;
  line: number;
}

const ALIASES: Record<string, string> = { 'prefer-timestamp-tz': 'prefer-timestamptz' };

/** The relation an ALTER TABLE or CREATE INDEX statement targets. */
function target(stmt: ParsedStatement): string {
  const b = nodeBody(stmt.stmt);
  return nodeKind(stmt.stmt) === 'AlterTableStmt' || nodeKind(stmt.stmt) === 'IndexStmt' ? rangeVarName(b.relation).split('.').pop()! : '';
}

/** Why dbops does not raise squawk's finding, or null when it is unexplained. */
async function explain(dir: string, p: Pair): Promise<string | null> {
  const parsed = await parseStatements(readFileSync(path.join(dir, p.file), 'utf8'));
  // squawk's lines are 0-based; a statement's text starts at the comments above it.
  const line = p.line + 1;
  let idx = parsed.length - 1;
  while (idx > 0 && parsed[idx]!.line > line) idx--;
  const stmt = parsed[idx]!;
  const table = target(stmt);
  const createdAs = parsed
    .slice(0, idx)
    .some((s) => nodeKind(s.stmt) === 'CreateTableAsStmt' && rangeVarName(nodeBody(s.stmt).into?.rel).split('.').pop() === table);
  if (table && createdAs) return 'table created earlier in the same file by CREATE TABLE ... AS / CREATE MATERIALIZED VIEW';
  const cons = JSON.stringify(stmt.stmt);
  if (p.rule === 'constraint-missing-not-valid' && /CONSTR_(PRIMARY|UNIQUE)/.test(cons) && !/CONSTR_(CHECK|FOREIGN)/.test(cons))
    return 'NOT VALID on PRIMARY KEY / UNIQUE, which PostgreSQL rejects';
  if (p.rule === 'adding-field-with-default' && !/FuncCall|CONSTR_IDENTITY|CONSTR_GENERATED|SQLValueFunction/.test(cons))
    return 'a constant DEFAULT such as -1 (squawk takes the minus sign for an expression), stored in the catalog without a rewrite since PostgreSQL 11';
  return null;
}

async function main(): Promise<void> {
  if (!existsSync(SQUAWK)) throw new Error(`squawk not found at ${SQUAWK}: npm i --prefix /tmp/squawk squawk-cli`);
  const { dir, cleanup, source } = migrationsDir();
  const outdir = path.join(realpathSync(path.join(import.meta.dirname, '../packages/cli')), `.test-dist-bench-${process.pid}`);
  try {
    const dbops = await buildCli(outdir);
    const floor = await buildCli(`${outdir}-floor`, path.join(import.meta.dirname, 'support/parse-floor-entry.ts'));
    const files = execFileSync('sh', ['-c', `ls ${GLOB.replace('**/', '*/')} | wc -l`], { cwd: dir, encoding: 'utf8' }).trim();
    const squawkNative = path.join(path.dirname(realpathSync(SQUAWK)), '../../../@squawk-cli', `${process.platform}-${process.arch}`, 'bin/squawk');
    const commands: [string, string, string[]][] = [
      ['dbops lint (bundle)', process.execPath, [dbops, 'lint', '--assume-in-transaction', '-r', 'json', '-o', '/dev/null', GLOB]],
      ['squawk (npm launcher)', SQUAWK, ['--assume-in-transaction', '--reporter', 'json', GLOB]],
      ...(existsSync(squawkNative)
        ? [['squawk (native binary)', squawkNative, ['--assume-in-transaction', '--reporter', 'json', GLOB]] as [string, string, string[]]]
        : []),
      ['parser floor: Node + libpg-query parse of the same files, nothing else', process.execPath, [floor, path.basename(GLOB)]],
      ['dbops --version (start only)', process.execPath, [dbops, '--version']],
      ['squawk --version (npm launcher)', SQUAWK, ['--version']],
    ];
    for (const [, cmd, args] of commands) time(cmd, args, dir); // warm the page cache
    const times = new Map<string, { wall: number; cpu: number }[]>(commands.map(([n]) => [n, []]));
    for (let i = 0; i < RUNS; i++) for (const [n, cmd, args] of commands) times.get(n)!.push(time(cmd, args, dir));

    const squawkJson = JSON.parse(
      spawnSync(SQUAWK, ['--assume-in-transaction', '--reporter', 'json', GLOB], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 }).stdout,
    ) as { file: string; rule_name: string; line: number }[];
    const ours = JSON.parse(
      spawnSync(process.execPath, [dbops, 'lint', '--assume-in-transaction', '-r', 'json', GLOB], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 }).stdout,
    ) as { files: { file: string; findings: { rule: string }[] }[] };
    const have = new Set(ours.files.flatMap((f) => f.findings.map((x) => `${f.file}\0${x.rule}`)));
    const squawkPairs = new Map<string, Pair>();
    for (const v of squawkJson) {
      const rule = ALIASES[v.rule_name] ?? v.rule_name;
      const k = `${v.file}\0${rule}`;
      if (!squawkPairs.has(k)) squawkPairs.set(k, { file: v.file, rule, line: v.line });
    }
    const missing = [...squawkPairs].filter(([k]) => !have.has(k)).map(([, p]) => p);
    const explained = new Map<string, number>();
    const unexplained: Pair[] = [];
    for (const p of missing) {
      // A pair is explained when every squawk finding of that rule in the file is.
      const all = squawkJson.filter((v) => v.file === p.file && (ALIASES[v.rule_name] ?? v.rule_name) === p.rule);
      const reasons = await Promise.all(all.map((v) => explain(dir, { ...p, line: v.line })));
      if (reasons.every((r) => r !== null)) for (const r of new Set(reasons)) explained.set(`${p.rule}: ${r}`, (explained.get(`${p.rule}: ${r}`) ?? 0) + 1);
      else unexplained.push(p);
    }
    const rulesRaised = new Set([...squawkPairs.values()].map((p) => p.rule));

    console.log(`dbops lint vs squawk on ${source} (${files} files matching ${GLOB}), ${RUNS} runs each, alternated`);
    console.log(
      `node ${process.version}; squawk ${spawnSync(SQUAWK, ['--version'], { encoding: 'utf8' }).stdout.trim()}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} cores; ${new Date().toISOString()}; NODE_EXTRA_CA_CERTS ${
        TIMED_ENV.NODE_EXTRA_CA_CERTS ? 'set' : process.env.NODE_EXTRA_CA_CERTS ? 'left out (BENCH_KEEP_CA=1 keeps it)' : 'not set'
      }`,
    );
    console.log('| command | wall median ms | wall p90 ms | CPU (user+sys) median ms |');
    console.log('|---|---|---|---|');
    for (const [n] of commands) {
      const xs = times.get(n)!;
      console.log(
        `| ${n} | ${quantile(
          xs.map((x) => x.wall),
          0.5,
        ).toFixed(0)} | ${quantile(
          xs.map((x) => x.wall),
          0.9,
        ).toFixed(0)} | ${quantile(
          xs.map((x) => x.cpu),
          0.5,
        ).toFixed(0)} |`,
      );
    }
    console.log(
      `\nparity: squawk raises ${squawkPairs.size} (file, rule) pairs over ${rulesRaised.size} rules; dbops raises ${squawkPairs.size - missing.length} of them.`,
    );
    for (const [reason, n] of [...explained].sort()) console.log(`  not raised, explained: ${n} x ${reason}`);
    console.log(`  not raised, unexplained: ${unexplained.length}`);
    for (const p of unexplained.slice(0, 20)) console.log(`    ${p.file}: ${p.rule} (squawk line ${p.line + 1})`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
    rmSync(`${outdir}-floor`, { recursive: true, force: true });
    cleanup();
  }
}

await main();
