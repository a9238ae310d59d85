import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestRuntime } from '../support/test-runtime';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A pid no process has now. */
const deadPid = (): number => {
  for (let pid = 4_000_000; pid > 1000; pid -= 7) if (!existsSync(`/proc/${pid}`)) return pid;
  throw new Error('no free pid');
};

/** Waits until `done()` holds, up to `ms` (a condition, not a timing: the test asserts the state after). */
async function until(done: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end && !(await done())) await new Promise((r) => setTimeout(r, 250));
}

const contents = async (dir: string): Promise<string[]> => readdir(dir).catch(() => []);

describe('embedded sandbox run directories', { timeout: 120_000 }, () => {
  const made: string[] = [];
  afterAll(async () => {
    for (const d of made) await rm(d, { recursive: true, force: true });
  });

  it('are emptied once the owning process is ended by SIGTERM (no exit handler runs)', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'dbops-rundirs-'));
    made.push(base);
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/sandbox-server-child.ts'), base], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve()); // the server is up
      child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    const runs = (await readdir(base)).filter((n) => n.startsWith('run-'));
    expect(runs).toHaveLength(1);
    const runDir = path.join(base, runs[0]!);
    expect(runDir.startsWith(path.join(base, 'run-'))).toBe(true);
    expect(await contents(runDir)).toContain('data');
    child.kill('SIGTERM');
    // The server's watchdog sees its owner gone (it polls every second), stops the server and empties the directory.
    await until(async () => (await contents(runDir)).length === 0, 30_000);
    expect(await contents(runDir)).toEqual([]);
  });

  it('left by dead processes are swept when the service starts', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'dbops-rundirs-'));
    made.push(base);
    const stale = [`run-${deadPid()}-0badc0de`, `run-${process.pid}-feedface`]; // the second: this pid, but not made by this process
    for (const name of stale) {
      await mkdir(path.join(base, name, 'data'), { recursive: true });
      await writeFile(path.join(base, name, 'data', 'PG_VERSION'), '17\n');
    }
    await mkdir(path.join(base, 'pg17-npm-v2'), { recursive: true }); // a prepared directory stays
    const t = await startTestRuntime({ env: { DBOPS_SANDBOX_PG_DIR: base } });
    try {
      expect((await readdir(base)).sort()).toEqual(['pg17-npm-v2']);
    } finally {
      await t.close();
    }
  });
});
