import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The prepared data directories and run directories live here: `DBOPS_SANDBOX_PG_DIR`, default `dbops-sandbox-pg` in the temp dir. */
export const baseDir = (dir: string | undefined): string => dir || path.join(tmpdir(), 'dbops-sandbox-pg');

/** Names of the run directories this process made (`run-<pid>-<random>`). */
export const ownRunDirs = new Set<string>();

const alive = (pid: number): boolean => pid > 0 && existsSync(`/proc/${pid}`);

/**
 * Removes run directories (`run-<pid>-<random>`, a copy of a prepared data directory each) left
 * by processes that are gone: a killed or crashed process leaves its copy behind. A directory of
 * this process's pid that it did not make is stale too (a restarted Lambda runtime reuses the
 * pid of the process that died, and keeps `/tmp`). A directory whose server still runs is left.
 */
export async function sweepRunDirs(base: string, own: ReadonlySet<string> = ownRunDirs): Promise<void> {
  const names = await readdir(base).catch(() => [] as string[]);
  for (const name of names) {
    const owner = Number(/^run-(\d+)-/.exec(name)?.[1] ?? 0);
    if (!owner) continue;
    if (owner === process.pid ? own.has(name) : alive(owner)) continue;
    const pidFile = path.join(base, name, 'data', 'postmaster.pid');
    // A server still running there (stopped only moments ago, or started before the watchdog): leave it.
    const pid = existsSync(pidFile) ? Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0]) : 0;
    if (alive(pid)) continue;
    await rm(path.join(base, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * The sweep the service runs at start (`DBOPS_SANDBOX_PG_DIR`), so a run directory that survived
 * a crash or a kill goes at the next start rather than at the next analysis on the embedded engine.
 */
export const sweepSandboxRunDirs = (dir?: string): Promise<void> => sweepRunDirs(baseDir(dir));
