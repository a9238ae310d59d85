import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../config';
import { sameAddress, sandboxRunSettings, sandboxServerSettings } from './sandbox-server-settings';

const URL_ = 'postgresql://sandbox:hunter2-secret@sandbox.internal:5433/postgres';

describe('sandbox run settings', () => {
  it("keeps every run's hard deadline inside the gateway window: 25 s by default, a larger setting lowered to the window less 5 s", () => {
    expect(sandboxRunSettings(loadSettings({})).deadlineMs).toBe(25_000);
    expect(sandboxRunSettings(loadSettings({ DBOPS_SANDBOX_DEADLINE_MS: '12000' })).deadlineMs).toBe(12_000);
    expect(sandboxRunSettings(loadSettings({ DBOPS_SANDBOX_DEADLINE_MS: '60000' })).deadlineMs).toBe(25_000);
    expect(sandboxRunSettings(loadSettings({ DBOPS_GATEWAY_TIMEOUT_SECONDS: '15' })).deadlineMs).toBe(10_000);
  });
});

describe('sandbox server settings', () => {
  it('is off without a URL and defaults to the extensions mode', () => {
    expect(sandboxServerSettings(loadSettings({}))).toBeUndefined();
    expect(sandboxServerSettings(loadSettings({ DBOPS_SANDBOX_SERVER_MODE: 'always' }))).toBeUndefined();
    expect(sandboxServerSettings(loadSettings({ DBOPS_SANDBOX_SERVER_URL: URL_ }))).toEqual({ url: URL_, mode: 'extensions' });
    expect(sandboxServerSettings(loadSettings({ DBOPS_SANDBOX_SERVER_URL: URL_, DBOPS_SANDBOX_SERVER_MODE: 'always' }))).toEqual({ url: URL_, mode: 'always' });
  });

  it('stops the process at start on an unusable value, without quoting the URL', () => {
    const bad = (env: Record<string, string>) => () => sandboxServerSettings(loadSettings(env));
    expect(bad({ DBOPS_SANDBOX_SERVER_MODE: 'sometimes' })).toThrow('DBOPS_SANDBOX_SERVER_MODE must be one of extensions, always');
    for (const url of [
      'mysql://u:hunter2-secret@h/db',
      'postgresql://u:hunter2-secret@/db',
      'postgresql://u:hunter2-secret@h:99999/db',
      'postgresql://u:hunter2-secret@h/db?sslmode=allow',
    ]) {
      let message = '';
      try {
        sandboxServerSettings(loadSettings({ DBOPS_SANDBOX_SERVER_URL: url }));
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/^DBOPS_SANDBOX_SERVER_URL is not usable: /);
      expect(message).not.toContain('hunter2-secret');
    }
  });

  it("refuses the service's own state database or the managed-database instance as the sandbox server", () => {
    expect(() =>
      sandboxServerSettings(loadSettings({ DBOPS_SANDBOX_SERVER_URL: URL_, DBOPS_DATABASE_URL: 'postgres://dbops:other@SANDBOX.internal.:5433/postgres' })),
    ).toThrow('DBOPS_SANDBOX_SERVER_URL points at the same server and database as DBOPS_DATABASE_URL: the sandbox needs a dedicated throwaway server');
    expect(() =>
      sandboxServerSettings(
        loadSettings({
          DBOPS_SANDBOX_SERVER_URL: 'postgresql://s:p@127.0.0.1:5432/postgres',
          DBOPS_SHARED_INSTANCE_URL: 'postgresql://admin:x@localhost/postgres',
        }),
      ),
    ).toThrow(/same server and database as DBOPS_SHARED_INSTANCE_URL/);
    // Another database on that server, or another server, is accepted.
    expect(
      sandboxServerSettings(loadSettings({ DBOPS_SANDBOX_SERVER_URL: URL_, DBOPS_DATABASE_URL: 'postgres://dbops:other@sandbox.internal:5433/dbops' }))?.mode,
    ).toBe('extensions');
    expect(
      sandboxServerSettings(loadSettings({ DBOPS_SANDBOX_SERVER_URL: URL_, DBOPS_DATABASE_URL: 'postgres://dbops:other@state.internal:5433/postgres' }))?.mode,
    ).toBe('extensions');
  });

  it('compares addresses by name, by loopback alias and by what the names resolve to', async () => {
    const a = { host: 'localhost', port: 5432, database: 'app' };
    expect(await sameAddress(a, { host: '127.0.0.1', port: 5432, database: 'app' })).toBe(true);
    expect(await sameAddress(a, { host: '[::1]', port: 5432, database: 'app' })).toBe(true);
    expect(await sameAddress(a, { host: '127.0.0.1', port: 5433, database: 'app' })).toBe(false);
    expect(await sameAddress(a, { host: '127.0.0.1', port: 5432, database: 'postgres' })).toBe(false);
    expect(await sameAddress({ host: '10.1.2.3', port: 5432, database: 'app' }, { host: '10.1.2.4', port: 5432, database: 'app' })).toBe(false);
    expect(await sameAddress({ host: 'no-such-host.invalid', port: 5432, database: 'app' }, { host: '10.1.2.4', port: 5432, database: 'app' })).toBe(false);
  });
});
