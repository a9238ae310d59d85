import { startLocalRuntime } from '@dbops/local';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectAs } from '../support/provisioning';

const home = await mkdtemp(path.join(tmpdir(), 'dbops-local-shared-'));
const env = { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent', DBOPS_SHARED_INSTANCE_URL: '' };

afterAll(async () => rm(home, { recursive: true, force: true }));

async function provisionOnce(): Promise<{ connection_string: string; id: string }> {
  const runtime = await startLocalRuntime({ port: 0, env });
  try {
    const jwt = await runtime.issuer.sign('local-user');
    const res = await fetch(`${runtime.baseUrl}/provision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'local' }),
    });
    const body = (await res.json()) as { data: { connection_string: string; id: string } };
    expect(res.status).toBe(201);
    const tenant = await connectAs(body.data.connection_string);
    await tenant.query('CREATE TABLE t (id int)');
    await tenant.end();
    return body.data;
  } finally {
    await runtime.close();
  }
}

describe('local runtime without a shared-instance setting', () => {
  it('starts an embedded PostgreSQL under DBOPS_HOME on first need, keeps its port, and stops it on close', async () => {
    // Not started before the first provision.
    const idle = await startLocalRuntime({ port: 0, env });
    await idle.close();
    expect(existsSync(path.join(home, 'shared-instance', 'instance.json'))).toBe(false);

    const first = await provisionOnce();
    const state = JSON.parse(await readFile(path.join(home, 'shared-instance', 'instance.json'), 'utf8')) as { port: number; dataDir: string };
    expect(state.dataDir.startsWith(home) || state.dataDir.startsWith('/var/lib/dbops/')).toBe(true);
    expect(first.connection_string).toContain(`@127.0.0.1:${state.port}/dbops_shared`);
    // Stopped with the runtime.
    await expect(connectAs(first.connection_string)).rejects.toThrow();

    // A restart reuses the same cluster and port, so the first database is still there; the
    // start's owner-only check (home-permissions.ts) leaves the postgres user its way in.
    const second = await provisionOnce();
    if (process.getuid?.() === 0 && state.dataDir.startsWith(home)) {
      expect(((await stat(home)).mode & 0o777).toString(8)).toBe('711');
      expect(((await stat(path.join(home, 'state'))).mode & 0o777).toString(8)).toBe('700');
    }
    expect(second.connection_string).toContain(`@127.0.0.1:${state.port}/`);
    const runtime = await startLocalRuntime({ port: 0, env });
    try {
      const jwt = await runtime.issuer.sign('local-user');
      const res = await fetch(`${runtime.baseUrl}/provision/${first.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${jwt}` } });
      expect(res.status).toBe(200);
      // The printed string works with psql (when the client is installed here).
      if (existsSync('/usr/bin/psql')) {
        const out = execFileSync('psql', [second.connection_string, '-tAc', 'SELECT current_schema()'], { encoding: 'utf8' });
        expect(out.trim()).toMatch(/^dbops_[0-9a-f]{32}$/);
      }
    } finally {
      await runtime.close();
    }
  }, 120_000);
});
