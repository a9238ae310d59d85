import { loadSettings } from '../../config';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import type { DataDirImage } from '../../store/pglite-data-dir-image';
import { runSandbox } from './run-sandbox';
import { type PreparedSandbox, SandboxImageCache, sandboxCacheKey, sandboxCacheOptions } from './sandbox-cache';
import { closeSandboxSpare } from './sandbox-pool';
import { cloneDdl } from './clone-ddl';
import { syntheticRowsScript } from './synthetic-rows';
import { sandboxOnText } from '../../../../../test/support/sandbox-on-text';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'dbops-sandbox-cache-test-'));
  dirs.push(d);
  return d;
};

/** A cache that counts the clones it was given (each one a full clone-and-fill). */
class CountingCache extends SandboxImageCache {
  puts = 0;
  override put(key: string, entry: PreparedSandbox): void {
    this.puts++;
    super.put(key, entry);
  }
}

const keyOf = (s: SchemaSnapshot, rows = 3) => sandboxCacheKey(s, cloneDdl(s).steps, syntheticRowsScript(s, rows).sql, rows);

const fakeEntry = (size: number, fill = 1): PreparedSandbox => ({
  image: { dirs: ['/d'], files: [{ path: '/d/f', start: 0, end: size }], bytes: new Uint8Array(size).fill(fill) } satisfies DataDirImage,
  state: { created: ['public.t'], skipped: [], rows: { inserted: 3, failures: [] }, countsBefore: [['public.t', 3]] },
});

const sandbox = (snapshot: SchemaSnapshot, sql: string, cache: SandboxImageCache) => sandboxOnText(snapshot, sql, { cache });

const withoutDuration = ({ duration_ms: _, phases: __, ...r }: Awaited<ReturnType<typeof runSandbox>> & { phases?: unknown }) => r;

describe('sandbox clone cache', () => {
  afterAll(async () => {
    await closeSandboxSpare();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('keys a clone by connection and by everything the clone is built from', () => {
    const base = shopSnapshot();
    const key = keyOf(base);
    const changed = (f: (s: SchemaSnapshot) => void) => {
      const s = shopSnapshot();
      f(s);
      return keyOf(s);
    };
    // Any change the clone reflects gives another key, so a changed snapshot cannot hit.
    expect(changed((s) => (s.tables.find((t) => t.name === 'orders')!.columns.find((c) => c.name === 'total')!.data_type = 'numeric(14,2)'))).not.toBe(key);
    expect(changed((s) => s.tables.find((t) => t.name === 'orders')!.columns.push({ ...s.tables[0]!.columns[1]!, name: 'note', ordinal: 9 }))).not.toBe(key);
    expect(changed((s) => s.enums[0]!.values.push('refunded'))).not.toBe(key);
    expect(changed((s) => (s.tables.find((t) => t.name === 'orders')!.columns.find((c) => c.name === 'total')!.udt_name = 'text'))).not.toBe(key);
    expect(
      changed((s) =>
        s.tables
          .find((t) => t.name === 'orders')!
          .indexes.push({
            ...s.tables.find((t) => t.name === 'orders')!.indexes[1]!,
            name: 'o2',
            definition: 'CREATE INDEX o2 ON public.orders USING btree (total)',
          }),
      ),
    ).not.toBe(key);
    // Never shared between connections (so never between users).
    expect(changed((s) => (s.connection_id = 'another'))).not.toBe(key);
    expect(keyOf(base, 5)).not.toBe(key);
    // Statistics the clone does not use, or a new snapshot of an unchanged schema, reuse it.
    expect(changed((s) => (s.tables[0]!.row_estimate = 1))).toBe(key);
    expect(changed((s) => (s.snapshot_id = 'later'))).toBe(key);
  });

  it('bounds the memory layer in bytes, dropping the least recently used clone', async () => {
    const cache = new SandboxImageCache({ maxMemoryBytes: 250, maxDiskBytes: 0, dir: tempDir() });
    cache.put('a', fakeEntry(100));
    cache.put('b', fakeEntry(100));
    await cache.get('a'); // a is now the most recent
    cache.put('c', fakeEntry(100));
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toBeDefined();
    expect(await cache.get('c')).toBeDefined();
    cache.put('huge', fakeEntry(300));
    expect(await cache.get('huge')).toBeUndefined();
    expect(await cache.get('a')).toBeDefined();
  });

  it('keeps clones on disk, owner-only, bounded in bytes, and treats a damaged file as a miss', async () => {
    const dir = tempDir();
    const cache = new SandboxImageCache({ maxMemoryBytes: 0, maxDiskBytes: 10 * 1024 * 1024, dir });
    const entry = fakeEntry(1000, 7);
    cache.put('k1', entry);
    await cache.flush();
    const back = await cache.get('k1');
    expect(back?.state).toEqual(entry.state);
    expect([...back!.image.bytes]).toEqual([...entry.image.bytes]);
    expect(statSync(path.join(dir, 'k1.img.gz')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    writeFileSync(path.join(dir, 'k1.img.gz'), 'not an image');
    expect(await cache.get('k1')).toBeUndefined();
    // A file under another key's name (renamed, copied) is not served for that key.
    cache.put('k2', entry);
    await cache.flush();
    copyFileSync(path.join(dir, 'k2.img.gz'), path.join(dir, 'k3.img.gz'));
    expect(await cache.get('k2')).toBeDefined();
    expect(await cache.get('k3')).toBeUndefined();

    // Random bytes do not compress: three entries of ~40 kB under a 100 kB budget keep two.
    const small = new SandboxImageCache({ maxMemoryBytes: 0, maxDiskBytes: 100 * 1024, dir: tempDir() });
    const random = (n: number): PreparedSandbox => {
      const e = fakeEntry(n);
      for (let i = 0; i < n; i++) e.image.bytes[i] = Math.floor(Math.random() * 256);
      return e;
    };
    for (const k of ['r1', 'r2', 'r3']) {
      small.put(k, random(40 * 1024));
      await small.flush();
      await new Promise((r) => setTimeout(r, 20)); // distinct mtimes
    }
    expect(await small.get('r1')).toBeUndefined();
    expect(await small.get('r2')).toBeDefined();
    expect(await small.get('r3')).toBeDefined();
  });

  it('does not use a directory it does not own outright (a symlink planted in a shared temp dir)', async () => {
    const real = tempDir();
    const link = path.join(tempDir(), 'link');
    symlinkSync(real, link);
    const cache = new SandboxImageCache({ maxMemoryBytes: 0, maxDiskBytes: 10 * 1024 * 1024, dir: link });
    cache.put('k', fakeEntry(100));
    await cache.flush();
    expect(readdirSync(real)).toEqual([]);
    expect(await cache.get('k')).toBeUndefined();
  });

  it('takes its bounds and directory from the environment', () => {
    const from = (env: Record<string, string>) => sandboxCacheOptions(loadSettings(env).sandbox);
    expect(from({ DBOPS_SANDBOX_CACHE_MB: '8', DBOPS_SANDBOX_CACHE_DISK_MB: '0', DBOPS_HOME: '/srv/dbops' })).toEqual({
      maxMemoryBytes: 8 * 1024 * 1024,
      maxDiskBytes: 0,
      dir: '/srv/dbops/sandbox-cache',
    });
    expect(from({ DBOPS_SANDBOX_CACHE_DIR: '/x' })).toMatchObject({ maxMemoryBytes: 256 * 1024 * 1024, maxDiskBytes: 1024 * 1024 * 1024, dir: '/x' });
    expect(() => from({ DBOPS_SANDBOX_CACHE_MB: 'lots' })).toThrow(/DBOPS_SANDBOX_CACHE_MB must be a number >= 0/);
  });

  it('starts a repeat analysis from the cached clone, and what one analysis applied is not visible in the next', async () => {
    const cache = new CountingCache({ maxMemoryBytes: 512 * 1024 * 1024, maxDiskBytes: 0, dir: tempDir() });
    const snapshot = { ...shopSnapshot(), connection_id: 'cache-isolation' };
    const sql = 'CREATE TABLE scratch (id int); ALTER TABLE orders ADD COLUMN note text; DELETE FROM customers WHERE id = 1';
    const first = await sandbox(snapshot, sql, cache);
    expect(first).toMatchObject({ passed: true, tables_created: 6, rows_inserted: 18 });
    const second = await sandbox(snapshot, sql, cache);
    // The same statements succeed again: neither the table, the column nor the delete carried over.
    expect(withoutDuration(second)).toEqual(withoutDuration(first));
    expect(cache.puts).toBe(1);
    // The cached clone holds only the schema and synthetic rows, whatever ran before.
    const probe = await sandbox(snapshot, 'ALTER TABLE scratch ADD COLUMN x int', cache);
    expect(probe.migration_error).toMatch(/relation "scratch" does not exist/);
  }, 120_000);

  it('clones again for a changed snapshot, and once for concurrent analyses of a new one', async () => {
    const cache = new CountingCache({ maxMemoryBytes: 512 * 1024 * 1024, maxDiskBytes: 0, dir: tempDir() });
    const before = { ...shopSnapshot(), connection_id: 'cache-change' };
    expect((await sandbox(before, 'ALTER TABLE orders DROP COLUMN note', cache)).migration_error).toMatch(/column "note" of relation "orders" does not exist/);
    const after = { ...shopSnapshot(), connection_id: 'cache-change' };
    after.tables
      .find((t) => t.name === 'orders')!
      .columns.push({
        name: 'note',
        ordinal: 5,
        data_type: 'text',
        udt_name: 'text',
        nullable: true,
        default: null,
        identity: null,
        generated: null,
        comment: null,
      });
    expect(await sandbox(after, 'ALTER TABLE orders DROP COLUMN note', cache)).toMatchObject({ passed: true });
    expect(cache.puts).toBe(2);

    const fresh = { ...shopSnapshot(), connection_id: 'cache-concurrent' };
    const results = await Promise.all([
      sandbox(fresh, 'ALTER TABLE orders ADD COLUMN a int', cache),
      sandbox(fresh, 'ALTER TABLE orders ADD COLUMN b int', cache),
    ]);
    expect(results.map((r) => r.passed)).toEqual([true, true]);
    expect(cache.puts).toBe(3);
  }, 120_000);

  it('serves a clone from disk to a new process (simulated by a second cache on the same directory)', async () => {
    const dir = tempDir();
    const snapshot = { ...shopSnapshot(), connection_id: 'cache-disk' };
    const writer = new CountingCache({ maxMemoryBytes: 512 * 1024 * 1024, maxDiskBytes: 1024 * 1024 * 1024, dir });
    const first = await sandbox(snapshot, 'ALTER TABLE orders ADD COLUMN note text', writer);
    await writer.flush();
    const reader = new CountingCache({ maxMemoryBytes: 512 * 1024 * 1024, maxDiskBytes: 1024 * 1024 * 1024, dir });
    const second = await sandbox(snapshot, 'ALTER TABLE orders ADD COLUMN note text', reader);
    expect(withoutDuration(second)).toEqual(withoutDuration(first));
    expect(reader.puts).toBe(0);
  }, 120_000);
});
