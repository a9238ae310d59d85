import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { CliError } from '../cli-error';
import { dbopsRuleIds } from './rule-names';

export type FailOn = 'error' | 'warning' | 'info' | 'none';
export const FAIL_ON: readonly FailOn[] = ['error', 'warning', 'info', 'none'];

/**
 * Settings from `.squawk.toml` (what squawk users already have) merged with dbops's own
 * (`dbops.toml`, or a `dbops` key in package.json), dbops's winning where both speak.
 */
export interface CliConfig {
  /** dbops rule ids to leave out (squawk names mapped). */
  excludedRules: Set<string>;
  /** Globs of files never linted, each relative to the directory of the file that lists it (or the cwd for flags). */
  excludedPaths: { root: string; pattern: string }[];
  pgVersion: number | undefined;
  assumeInTransaction: boolean | undefined;
  failOn: FailOn | undefined;
  connection: string | undefined;
  baseUrl: string | undefined;
  /** `dbops analyze` fails (exit 1) when a file's risk score reaches this. */
  maxRiskScore: number | undefined;
  /** Config files read, for `--verbose` and error messages. */
  sources: string[];
}

type Table = Record<string, unknown>;

const strings = (v: unknown, where: string): string[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new CliError(`${where}: expected an array of strings`);
  return v as string[];
};

const pgMajor = (v: unknown, where: string): number | undefined => {
  if (v === undefined) return undefined;
  const m = /^(\d+)/.exec(String(v));
  if (!m) throw new CliError(`${where}: pg_version must look like "16" or "13.0"`);
  return Number(m[1]);
};

const bool = (v: unknown, where: string): boolean | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new CliError(`${where}: expected true or false`);
  return v;
};

const failOn = (v: unknown, where: string): FailOn | undefined => {
  if (v === undefined) return undefined;
  if (!FAIL_ON.includes(v as FailOn)) throw new CliError(`${where}: fail_on must be one of ${FAIL_ON.join(', ')}`);
  return v as FailOn;
};

function readToml(file: string): Table {
  try {
    return parseToml(readFileSync(file, 'utf8')) as Table;
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** The nearest file of that name from `dir` upward. */
function findUp(dir: string, name: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const f = path.join(d, name);
    if (existsSync(f)) return f;
    if (path.dirname(d) === d) return undefined;
  }
}

/** The `dbops` key of the nearest package.json that has one. */
function packageJsonConfig(dir: string): { file: string; dir: string; table: Table } | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const f = path.join(d, 'package.json');
    if (existsSync(f)) {
      try {
        const pkg = JSON.parse(readFileSync(f, 'utf8')) as Table;
        if (pkg.dbops && typeof pkg.dbops === 'object') return { file: `${f} ("dbops")`, dir: d, table: pkg.dbops as Table };
      } catch {
        // A broken package.json is npm's business, not ours.
      }
    }
    if (path.dirname(d) === d) return undefined;
  }
}

export interface ConfigPaths {
  /** `--config` (a .squawk.toml, as squawk's `-c`). */
  squawk?: string;
  /** `--dbops-config`. */
  dbops?: string;
}

export function loadConfig(cwd: string, paths: ConfigPaths = {}): CliConfig {
  const cfg: CliConfig = {
    excludedRules: new Set(),
    excludedPaths: [],
    pgVersion: undefined,
    assumeInTransaction: undefined,
    failOn: undefined,
    connection: undefined,
    baseUrl: undefined,
    maxRiskScore: undefined,
    sources: [],
  };
  const squawkFile = paths.squawk ? path.resolve(cwd, paths.squawk) : findUp(cwd, '.squawk.toml');
  if (paths.squawk && !existsSync(squawkFile!)) throw new CliError(`config file not found: ${paths.squawk}`);
  if (squawkFile) {
    const t = readToml(squawkFile);
    for (const r of strings(t.excluded_rules, `${squawkFile} excluded_rules`)) for (const id of dbopsRuleIds(r)) cfg.excludedRules.add(id);
    for (const pattern of strings(t.excluded_paths, `${squawkFile} excluded_paths`)) cfg.excludedPaths.push({ root: path.dirname(squawkFile), pattern });
    cfg.pgVersion = pgMajor(t.pg_version, `${squawkFile} pg_version`);
    cfg.assumeInTransaction = bool(t.assume_in_transaction, `${squawkFile} assume_in_transaction`);
    cfg.sources.push(squawkFile);
  }
  const dbopsFile = paths.dbops ? path.resolve(cwd, paths.dbops) : findUp(cwd, 'dbops.toml');
  if (paths.dbops && !existsSync(dbopsFile!)) throw new CliError(`config file not found: ${paths.dbops}`);
  const own = dbopsFile ? { file: dbopsFile, dir: path.dirname(dbopsFile), table: readToml(dbopsFile) } : packageJsonConfig(cwd);
  if (own) {
    const t = own.table;
    const w = own.file;
    for (const r of strings(t.excluded_rules, `${w} excluded_rules`)) for (const id of dbopsRuleIds(r)) cfg.excludedRules.add(id);
    for (const pattern of strings(t.excluded_paths, `${w} excluded_paths`)) cfg.excludedPaths.push({ root: own.dir, pattern });
    cfg.pgVersion = pgMajor(t.pg_version, `${w} pg_version`) ?? cfg.pgVersion;
    cfg.assumeInTransaction = bool(t.assume_in_transaction, `${w} assume_in_transaction`) ?? cfg.assumeInTransaction;
    cfg.failOn = failOn(t.fail_on, `${w} fail_on`);
    if (t.connection !== undefined && typeof t.connection !== 'string') throw new CliError(`${w} connection: expected a connection id`);
    cfg.connection = t.connection as string | undefined;
    if (t.base_url !== undefined && typeof t.base_url !== 'string') throw new CliError(`${w} base_url: expected a URL`);
    cfg.baseUrl = t.base_url as string | undefined;
    const thresholds = (t.thresholds ?? {}) as Table;
    const risk = thresholds.max_risk_score;
    if (risk !== undefined && (typeof risk !== 'number' || risk < 0 || risk > 100))
      throw new CliError(`${w} thresholds.max_risk_score: expected a number from 0 to 100`);
    cfg.maxRiskScore = risk as number | undefined;
    cfg.sources.push(w);
  }
  return cfg;
}
