import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from './config';

describe('loadSettings', () => {
  it('gives every setting its documented default when nothing is set', () => {
    const s = loadSettings({});
    expect(s).toMatchObject({
      mode: 'local',
      rateLimit: 600,
      port: 4000,
      maxBodyBytes: 10 * 1024 * 1024,
      logLevel: 'info',
      migrateOnStart: true,
      executePoolSize: 10,
    });
    expect(s.connections).toEqual({
      connectTimeoutMs: 5000,
      blockPrivateHosts: undefined,
      allowedHosts: [],
      secretCacheTtlMs: 300_000,
      targetCacheTtlMs: 10_000,
      introspectionTimeoutMs: 60_000,
    });
    expect(s).toMatchObject({ rateLimitLease: 100, authCacheTtlMs: 10_000 });
    expect(s.migrationExecution).toMatchObject({ leaseMs: 60_000, heartbeatMs: 15_000, pendingTimeoutMs: 900_000 });
    expect(s.sandbox.cacheDir).toBe(`${s.home}/sandbox-cache`);
    expect(s.safePlan).toEqual({ batchSize: 5000, batchPauseMs: 0, minRows: 100_000 });
  });

  it('caches nothing across processes in cloud mode unless told to: auth, connections, rate-limit leases', () => {
    const cloud = loadSettings({ DBOPS_MODE: 'cloud' });
    expect(cloud).toMatchObject({ rateLimitLease: 1, authCacheTtlMs: 0 });
    expect(cloud.connections.targetCacheTtlMs).toBe(0);
    const set = loadSettings({ DBOPS_MODE: 'cloud', DBOPS_AUTH_CACHE_SECONDS: '5', DBOPS_RATE_LIMIT_LEASE: '20', DBOPS_CONNECTION_CACHE_SECONDS: '2' });
    expect(set).toMatchObject({ rateLimitLease: 20, authCacheTtlMs: 5000 });
    expect(set.connections.targetCacheTtlMs).toBe(2000);
  });

  it('bounds the batch size and pause a safe plan is offered with, as the executor bounds them', () => {
    expect(loadSettings({ DBOPS_SAFE_PLAN_BATCH_SIZE: '250', DBOPS_SAFE_PLAN_BATCH_PAUSE_MS: '40' }).safePlan).toMatchObject({
      batchSize: 250,
      batchPauseMs: 40,
    });
    expect(loadSettings({ DBOPS_SAFE_PLAN_BATCH_SIZE: '5000000', DBOPS_SAFE_PLAN_BATCH_PAUSE_MS: '999999' }).safePlan).toMatchObject({
      batchSize: 1_000_000,
      batchPauseMs: 60_000,
    });
    // The table-size bound from which a plan is offered: any whole number of rows, 0 included.
    expect(loadSettings({ DBOPS_SAFE_PLAN_MIN_ROWS: '0' }).safePlan.minRows).toBe(0);
    expect(loadSettings({ DBOPS_SAFE_PLAN_MIN_ROWS: '2500' }).safePlan.minRows).toBe(2500);
    expect(() => loadSettings({ DBOPS_SAFE_PLAN_MIN_ROWS: '-1' })).toThrow(SettingsError);
    expect(() => loadSettings({ DBOPS_SAFE_PLAN_MIN_ROWS: 'many' })).toThrow(SettingsError);
    expect(() => loadSettings({ DBOPS_SAFE_PLAN_BATCH_SIZE: '0' })).toThrow(SettingsError);
  });

  it('treats an empty value as unset and parses flags, lists and numbers', () => {
    const s = loadSettings({
      DBOPS_RATE_LIMIT: '',
      DBOPS_BLOCK_PRIVATE_HOSTS: 'FALSE',
      DBOPS_ALLOWED_HOSTS: ' DB.internal, ,10.0.0.0/8',
      DBOPS_MIGRATE_ON_START: '0',
      DBOPS_MIGRATION_HEARTBEAT_SECONDS: '0.5',
    });
    expect(s.rateLimit).toBe(600);
    expect(s.connections.blockPrivateHosts).toBe(false);
    expect(s.connections.allowedHosts).toEqual(['db.internal', '10.0.0.0/8']);
    expect(s.migrateOnStart).toBe(false);
    expect(s.migrationExecution.heartbeatMs).toBe(500);
  });

  it('names every bad variable at once and never echoes a value', () => {
    let error: unknown;
    try {
      loadSettings({ DBOPS_RATE_LIMIT: '0', DBOPS_EXECUTE_POOL_SIZE: 'hunter2', DBOPS_MODE: 'space', DBOPS_BLOCK_PRIVATE_HOSTS: 'perhaps' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    const message = (error as Error).message;
    expect(message).toContain('DBOPS_RATE_LIMIT must be a whole number >= 1');
    expect(message).toContain('DBOPS_EXECUTE_POOL_SIZE must be a whole number >= 0');
    expect(message).toContain('DBOPS_MODE must be one of local, cloud');
    expect(message).toContain('DBOPS_BLOCK_PRIVATE_HOSTS must be true or false');
    expect(message).not.toMatch(/hunter2|space|perhaps/);
  });

  it('collects DBOPS_SECRET_* variables for the local secret store, not its own settings', () => {
    const s = loadSettings({ DBOPS_SECRET_STRIPE_SECRET_KEY: 'sk_x', DBOPS_SECRET_CACHE_SECONDS: '5', DBOPS_SECRET_EMPTY: '' });
    expect(s.secretVariables).toEqual({ DBOPS_SECRET_STRIPE_SECRET_KEY: 'sk_x' });
    expect(s.connections.secretCacheTtlMs).toBe(5000);
  });
});
