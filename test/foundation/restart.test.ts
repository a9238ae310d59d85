import { startLocalRuntime } from '@dbops/local';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('local runtime on disk', () => {
  let home: string;
  const env = (): Record<string, string | undefined> => ({ ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'dbops-restart-'));
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  it('keeps state across restarts and accepts tokens from `npm run token` for the same home', async () => {
    // The CLI, as a user runs it, in its own process.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'packages/local/src/token-cli.ts', '--user', 'restart-user'], { env: env() });
    const jwt = stdout.trim();
    expect(jwt.split('.')).toHaveLength(3);

    const first = await startLocalRuntime({ port: 0, env: env() });
    const created = await fetch(`${first.baseUrl}/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'survives' }),
    });
    expect(created.status).toBe(201);
    const key = ((await created.json()) as { data: { key: string } }).data.key;
    await first.close();

    const second = await startLocalRuntime({ port: 0, env: env() });
    try {
      const balance = await fetch(`${second.baseUrl}/billing/balance`, { headers: { 'x-api-key': key } });
      expect(balance.status).toBe(200);
      const listed = await fetch(`${second.baseUrl}/api-keys`, { headers: { authorization: `Bearer ${jwt}` } });
      const names = ((await listed.json()) as { data: Array<{ name: string }> }).data.map((k) => k.name);
      expect(names).toEqual(['survives']);
    } finally {
      await second.close();
    }
  }, 120_000);
});
