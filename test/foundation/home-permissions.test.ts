import { startLocalRuntime } from '@dbops/local';
import { secureHome } from '@dbops/local/home-permissions';
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const homes: string[] = [];
afterAll(async () => {
  for (const h of homes) await rm(h, { recursive: true, force: true });
});

/** Every path under `root` whose mode lets anyone but the owner in, with its mode. */
async function opened(root: string, skip: Set<string> = new Set()): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const s = await lstat(dir);
    if ((s.mode & 0o077) !== 0) out.push(`${path.relative(root, dir) || '.'} ${(s.mode & 0o777).toString(8)}`);
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (skip.has(p) || e.isSymbolicLink()) continue;
      if (e.isDirectory()) await walk(p);
      else if ((await lstat(p)).mode & 0o077) out.push(`${path.relative(root, p)} ${((await lstat(p)).mode & 0o777).toString(8)}`);
    }
  };
  await walk(root);
  return out;
}

describe('DBOPS_HOME is owner-only', () => {
  it('is checked and fixed at start: 0700 directories, 0600 files, including what the state store wrote', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'dbops-perm-'));
    homes.push(home);
    await chmod(home, 0o755);
    await mkdir(path.join(home, 'old', 'deeper'), { recursive: true, mode: 0o755 });
    await writeFile(path.join(home, 'old', 'deeper', 'leftover.json'), '{}', { mode: 0o644 });
    await writeFile(path.join(home, 'notes.txt'), 'x', { mode: 0o666 });
    expect((await opened(home)).length).toBeGreaterThan(3);

    const env = { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent' };
    const first = await startLocalRuntime({ port: 0, env });
    const jwt = await first.issuer.sign('perm-user');
    expect(
      (
        await fetch(`${first.baseUrl}/api-keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'k' }),
        })
      ).status,
    ).toBe(201);
    await first.close();
    // The state store writes its own files with the default umask; the directories around them
    // are owner-only, and the next start narrows the files too.
    const second = await startLocalRuntime({ port: 0, env });
    await second.close();
    expect(await opened(home)).toEqual([]);
  }, 120_000);

  it('as root with the embedded shared instance: home and shared-instance/ stay traversable, its data directory is left to PostgreSQL', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'dbops-perm-split-'));
    homes.push(home);
    const shared = path.join(home, 'shared-instance');
    await mkdir(path.join(shared, 'data'), { recursive: true, mode: 0o750 });
    await chmod(path.join(shared, 'data'), 0o750);
    await writeFile(path.join(shared, 'instance.json'), '{}', { mode: 0o644 });
    await mkdir(path.join(home, 'state'), { mode: 0o755 });
    await writeFile(path.join(home, 'state', 'f'), 'x', { mode: 0o644 });

    const check = await secureHome(home, { sharedInstanceRunsAsOtherUser: true });
    expect(check.fixed.length).toBeGreaterThan(0);
    const mode = async (p: string) => ((await lstat(p)).mode & 0o777).toString(8);
    expect(await mode(home)).toBe('711');
    expect(await mode(shared)).toBe('711');
    expect(await mode(path.join(shared, 'instance.json'))).toBe('600');
    expect(await mode(path.join(shared, 'data'))).toBe('750');
    expect(await mode(path.join(home, 'state'))).toBe('700');
    expect(await mode(path.join(home, 'state', 'f'))).toBe('600');
    // A second check changes nothing.
    expect((await secureHome(home, { sharedInstanceRunsAsOtherUser: true })).fixed).toEqual([]);
  });
});
