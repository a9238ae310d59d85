import { describe, expect, it } from 'vitest';
import { SecretCache } from './secret-cache';

describe('SecretCache', () => {
  const loader = () => {
    let calls = 0;
    return { load: async () => `secret-${++calls}`, calls: () => calls };
  };

  it('serves a record from memory until its time is up, then decrypts again', async () => {
    const cache = new SecretCache(1000);
    const l = loader();
    const key = SecretCache.keyOf(['local', 'id', 'user', Buffer.from([1, 2]), Buffer.from([3])]);
    expect(await cache.get(key, 0, l.load)).toBe('secret-1');
    expect(await cache.get(key, 999, l.load)).toBe('secret-1');
    expect(l.calls()).toBe(1);
    expect(await cache.get(key, 1000, l.load)).toBe('secret-2');
  });

  it('keys on every part of the stored record, so a re-encrypted or moved record misses', async () => {
    const parts = ['local', 'id', 'user', Buffer.from([1, 2]), Buffer.from([3])] as const;
    const base = SecretCache.keyOf(parts);
    expect(SecretCache.keyOf(['local', 'id', 'user', Buffer.from([1, 2]), Buffer.from([4])])).not.toBe(base);
    expect(SecretCache.keyOf(['local', 'id', 'other', Buffer.from([1, 2]), Buffer.from([3])])).not.toBe(base);
    // Part boundaries count: ("ab","c") and ("a","bc") differ.
    expect(SecretCache.keyOf(['ab', 'c'])).not.toBe(SecretCache.keyOf(['a', 'bc']));
  });

  it('drops the oldest entries beyond its size and caches nothing with a zero TTL', async () => {
    const cache = new SecretCache(60_000, 2);
    const l = loader();
    await cache.get('a', 0, l.load);
    await cache.get('b', 0, l.load);
    await cache.get('c', 0, l.load);
    await cache.get('a', 0, l.load);
    expect(l.calls()).toBe(4);

    const off = new SecretCache(0);
    const m = loader();
    await off.get('a', 0, m.load);
    await off.get('a', 0, m.load);
    expect(m.calls()).toBe(2);
  });

  it('does not cache a failed decryption', async () => {
    const cache = new SecretCache(60_000);
    await expect(cache.get('k', 0, () => Promise.reject(new Error('tampered')))).rejects.toThrow('tampered');
    expect(await cache.get('k', 0, async () => 'ok')).toBe('ok');
  });
});
