import { describe, expect, it } from 'vitest';
import type { ConnectionTarget } from './connection-target';
import { TargetCache } from './target-cache';

const target = (id: string, connectionString: string): ConnectionTarget => ({
  id,
  userId: 'u',
  name: 'n',
  dbType: 'postgresql',
  connectionString,
  sslmode: 'disable',
  host: 'h',
  port: 5432,
  database: 'd',
  isActive: true,
  preferPlain: false,
});

describe('TargetCache', () => {
  it('serves a loaded target for its TTL, per user, and loads again after a forget', async () => {
    const cache = new TargetCache(10_000);
    let loads = 0;
    let current = 'postgres://a';
    const load = async () => (loads++, target('c1', current));
    expect((await cache.get('u', 'c1', 0, load)).connectionString).toBe('postgres://a');
    current = 'postgres://b';
    expect((await cache.get('u', 'c1', 5_000, load)).connectionString).toBe('postgres://a');
    expect(loads).toBe(1);
    await cache.get('other-user', 'c1', 5_000, load);
    expect(loads).toBe(2);
    cache.forget('c1');
    expect((await cache.get('u', 'c1', 5_001, load)).connectionString).toBe('postgres://b');
    current = 'postgres://c';
    expect((await cache.get('u', 'c1', 15_002, load)).connectionString).toBe('postgres://c');
  });

  it('does not keep a load that was in flight when the connection changed, nor a failed one', async () => {
    const cache = new TargetCache(10_000);
    let release!: () => void;
    const slow = cache.get('u', 'c2', 0, () => new Promise((r) => (release = () => r(target('c2', 'postgres://old')))));
    cache.forget('c2');
    release();
    expect((await slow).connectionString).toBe('postgres://old');
    expect((await cache.get('u', 'c2', 1, async () => target('c2', 'postgres://new'))).connectionString).toBe('postgres://new');
    await expect(cache.get('u', 'c3', 0, () => Promise.reject(new Error('NOT_FOUND')))).rejects.toThrow('NOT_FOUND');
    expect((await cache.get('u', 'c3', 1, async () => target('c3', 'postgres://x'))).connectionString).toBe('postgres://x');
  });

  it('with TTL 0 loads on every use', async () => {
    const cache = new TargetCache(0);
    let loads = 0;
    for (let i = 0; i < 3; i++) await cache.get('u', 'c', i, async () => (loads++, target('c', 'postgres://a')));
    expect(loads).toBe(3);
  });
});
