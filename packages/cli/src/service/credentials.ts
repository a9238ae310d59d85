import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError } from '../cli-error';

export interface Credentials {
  api_key: string;
  base_url?: string;
}

/** `$XDG_CONFIG_HOME/dbops/credentials`, else `~/.config/dbops/credentials`. */
export function credentialsPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'dbops', 'credentials');
}

/** Reads the credentials file; refuses one that others can read (as ssh does with keys). */
export function readCredentials(env: NodeJS.ProcessEnv): Credentials | undefined {
  const file = credentialsPath(env);
  if (!existsSync(file)) return undefined;
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
    throw new CliError(`${file} is readable by other users; run: chmod 600 ${file}`, 'usage');
  }
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as Credentials;
    if (typeof c.api_key !== 'string' || c.api_key === '') throw new Error('no api_key');
    return c;
  } catch (error) {
    throw new CliError(`${file} is not a dbops credentials file (${(error as Error).message}); run dbops login again`);
  }
}

/** Writes the credentials with 0600 rights (directory 0700), created that way, never widened. */
export function writeCredentials(env: NodeJS.ProcessEnv, c: Credentials): string {
  const file = credentialsPath(env);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  // An existing file keeps its mode on write: tighten it.
  chmodSync(file, 0o600);
  return file;
}
