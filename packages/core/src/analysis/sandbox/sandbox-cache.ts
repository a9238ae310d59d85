import type { SandboxSettings } from '../../config';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gunzip as gunzipCb } from 'node:zlib';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { type DataDirImage, decodeImage, encodeImageParts } from '../../store/pglite-data-dir-image';
import type { DdlStep } from './clone-ddl';
import type { SkippedCloneObject } from './clone-skips';
import type { SyntheticRowsResult } from './synthetic-rows';

const gunzip = promisify(gunzipCb);

/**
 * Bump when what a cached image holds or how it is built changes (PGlite or pgvector upgrade,
 * start settings, clone or synthetic-row logic): older entries then never match.
 */
const CACHE_VERSION = 'pglite-0.4-vector-1/sandbox-3-schema-model';

/** What cloning the schema and inserting the synthetic rows produced, besides the data directory. */
export interface CloneState {
  /** Tables (`schema.name`) present after cloning. */
  created: string[];
  /** Objects PGlite refused while cloning, with PostgreSQL's message. */
  skipped: SkippedCloneObject[];
  rows: SyntheticRowsResult;
  /** Row count of every created table once the synthetic rows are in. */
  countsBefore: [string, number][];
}

/** A schema clone with its synthetic rows, ready to start sandbox instances from. */
export interface PreparedSandbox {
  image: DataDirImage;
  state: CloneState;
}

/**
 * Cache key of the clone of `snapshot`: the connection (entries are never shared between
 * connections, so never between users) and a hash of everything the clone is built from: the
 * generated DDL, the search path it runs under, the synthetic-row script and the row count. A
 * snapshot whose schema changed in any way the clone reflects produces other DDL or rows, so it
 * cannot hit an older entry.
 */
export function sandboxCacheKey(snapshot: SchemaSnapshot, steps: readonly DdlStep[], rowsScript: string, rowsPerTable: number): string {
  const h = createHash('sha256');
  // The search path the clone is built under (its definitions resolve there), when the snapshot has one.
  const path = snapshot.search_path?.length ? [`search_path\u0000${snapshot.search_path.join('\u0000')}`] : [];
  for (const part of [
    CACHE_VERSION,
    snapshot.connection_id,
    String(rowsPerTable),
    ...path,
    ...steps.map((s) => `${s.kind}\u0000${s.object}\u0000${s.sql}`),
    rowsScript,
  ]) {
    h.update(part);
    h.update('\u0001');
  }
  return h.digest('hex');
}

export interface SandboxCacheOptions {
  /** Bytes of images kept in memory (least recently used dropped first); 0 keeps none. */
  maxMemoryBytes: number;
  /** Bytes of gzipped images kept in `dir`; 0 disables the disk layer. */
  maxDiskBytes: number;
  dir: string;
}

const MB = 1024 * 1024;

/**
 * The cache's bounds from the settings: `DBOPS_SANDBOX_CACHE_MB` (memory, default 256),
 * `DBOPS_SANDBOX_CACHE_DISK_MB` (default 1024) and `DBOPS_SANDBOX_CACHE_DIR` (default
 * `$DBOPS_HOME/sandbox-cache`).
 */
export const sandboxCacheOptions = (sandbox: SandboxSettings): SandboxCacheOptions => ({
  maxMemoryBytes: sandbox.cacheMemoryBytes,
  maxDiskBytes: sandbox.cacheDiskBytes,
  dir: sandbox.cacheDir,
});

/** The process-wide cache's bounds when none are given: memory only, nothing on disk. */
const MEMORY_ONLY: SandboxCacheOptions = { maxMemoryBytes: 256 * MB, maxDiskBytes: 0, dir: path.join(tmpdir(), 'dbops-sandbox-cache') };

/**
 * Schema clones with synthetic rows by cache key, least recently used evicted first, in memory
 * and (gzipped, written in the background) on disk, each layer bounded in bytes. An entry is only
 * ever a starting point: every sandbox run starts its own PGlite on a private copy of the bytes.
 */
export class SandboxImageCache {
  private readonly memory = new Map<string, PreparedSandbox>();
  private memoryBytes = 0;
  private diskWrites = Promise.resolve();
  private diskDir: Promise<boolean> | undefined;

  constructor(private readonly options: SandboxCacheOptions) {}

  async get(key: string): Promise<PreparedSandbox | undefined> {
    const hit = this.memory.get(key);
    if (hit) {
      this.memory.delete(key);
      this.memory.set(key, hit);
      return hit;
    }
    if (!this.options.maxDiskBytes || !(await this.ownDir())) return undefined;
    const file = this.file(key);
    try {
      const { image, meta } = decodeImage(await gunzip(await readFile(file)));
      const m = meta as { key?: string; state?: CloneState };
      if (m.key !== key || !m.state) return undefined;
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined); // mtime orders the disk LRU
      const entry = { image, state: m.state };
      this.remember(key, entry);
      return entry;
    } catch {
      return undefined; // absent, being evicted by another process, or unreadable: a miss
    }
  }

  put(key: string, entry: PreparedSandbox): void {
    this.remember(key, entry);
    if (this.options.maxDiskBytes && entry.image.bytes.length) {
      this.diskWrites = this.diskWrites.then(() => this.writeDisk(key, entry)).catch(() => undefined);
    }
  }

  /** Forgets an entry (one that failed to start), in memory and on disk. */
  async delete(key: string): Promise<void> {
    const e = this.memory.get(key);
    if (e) {
      this.memory.delete(key);
      this.memoryBytes -= e.image.bytes.length;
    }
    await rm(this.file(key), { force: true }).catch(() => undefined);
  }

  /** Resolves once the background disk writes issued so far are done (tests, shutdown). */
  flush(): Promise<void> {
    return this.diskWrites;
  }

  private file(key: string): string {
    return path.join(this.options.dir, `${key}.img.gz`);
  }

  private remember(key: string, entry: PreparedSandbox): void {
    const size = entry.image.bytes.length;
    if (size > this.options.maxMemoryBytes) return;
    const old = this.memory.get(key);
    if (old) {
      this.memory.delete(key);
      this.memoryBytes -= old.image.bytes.length;
    }
    this.memory.set(key, entry);
    this.memoryBytes += size;
    for (const [k, e] of this.memory) {
      if (this.memoryBytes <= this.options.maxMemoryBytes) break;
      this.memory.delete(k);
      this.memoryBytes -= e.image.bytes.length;
    }
  }

  /**
   * Creates the directory owner-only (a clone holds the user's schema: names and definitions,
   * never their data; files are 0600 too) and uses it only if it is a real directory of this
   * user, not a symlink or a directory another account prepared in a shared temp dir.
   */
  private ownDir(): Promise<boolean> {
    this.diskDir ??= (async () => {
      const { dir } = this.options;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const st = await lstat(dir);
      return st.isDirectory() && (process.getuid === undefined || st.uid === process.getuid());
    })().catch(() => false);
    return this.diskDir;
  }

  private async writeDisk(key: string, entry: PreparedSandbox): Promise<void> {
    const { maxDiskBytes } = this.options;
    if (!(await this.ownDir())) return;
    const tmp = `${this.file(key)}.${process.pid}.${Date.now()}.tmp`;
    try {
      // Streamed through gzip on libuv's threads: no second copy of the image on this thread.
      await pipeline(
        Readable.from(encodeImageParts(entry.image, { key, state: entry.state })),
        createGzip({ level: 1, chunkSize: 1 << 20 }),
        createWriteStream(tmp, { mode: 0o600 }),
      );
      if ((await stat(tmp)).size > maxDiskBytes) throw new Error('larger than the whole disk budget');
      await rename(tmp, this.file(key)); // atomic: readers in other processes never see half a file
    } catch {
      await rm(tmp, { force: true }).catch(() => undefined); // e.g. the disk is full: free it
    } finally {
      await this.evictDisk();
    }
  }

  private async evictDisk(): Promise<void> {
    const { dir, maxDiskBytes } = this.options;
    if (!(await this.ownDir())) return;
    const entries: { file: string; size: number; mtime: number }[] = [];
    for (const name of await readdir(dir)) {
      const file = path.join(dir, name);
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      // A temp file older than a minute belongs to a process that died while writing.
      if (name.endsWith('.tmp')) {
        if (Date.now() - st.mtimeMs > 60_000) await rm(file, { force: true }).catch(() => undefined);
        continue;
      }
      if (name.endsWith('.img.gz')) entries.push({ file, size: st.size, mtime: st.mtimeMs });
    }
    let total = entries.reduce((n, e) => n + e.size, 0);
    for (const e of entries.sort((a, b) => a.mtime - b.mtime)) {
      if (total <= maxDiskBytes) break;
      await rm(e.file, { force: true }).catch(() => undefined);
      total -= e.size;
    }
  }
}

let shared: { cache: SandboxImageCache; key: string } | undefined;

/**
 * The process-wide cache (each sandbox thread has its own), with the bounds the service's
 * settings give (`sandboxCacheOptions`), passed as plain data so they cross to a thread; memory
 * only when none are given (tests, benches).
 */
export function sharedSandboxCache(bounds: SandboxCacheOptions = MEMORY_ONLY): SandboxImageCache {
  const key = JSON.stringify(bounds);
  if (shared?.key !== key) shared = { cache: new SandboxImageCache(bounds), key };
  return shared.cache;
}
