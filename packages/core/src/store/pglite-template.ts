import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Extensions every embedded instance loads. */
export const pgliteExtensions = { vector };

const TEMPLATE_VERSION = 'pglite-0.4-vector-1';
let cacheDir: string | undefined;

/** Where the prepared data directory is cached (`DBOPS_PGLITE_CACHE`); set once at start, default the OS temp dir. */
export function setPgliteCacheDir(dir: string | undefined): void {
  cacheDir = dir;
}

const templateFile = (): string => path.join(cacheDir ?? tmpdir(), `dbops-${TEMPLATE_VERSION}.tar`);

let cached: Promise<Blob> | undefined;

async function templateBlob(): Promise<Blob> {
  try {
    return new Blob([await readFile(templateFile())]);
  } catch {
    // No template yet: pay for initdb once, then keep the result for every later instance.
    const db = await PGlite.create({ extensions: pgliteExtensions });
    await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
    const dump = await db.dumpDataDir('none');
    await db.close();
    const bytes = Buffer.from(await dump.arrayBuffer());
    const tmp = `${templateFile()}.${process.pid}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, templateFile()); // atomic, so concurrent test workers never read half a file
    return new Blob([bytes]);
  }
}

/**
 * A fresh in-memory PGlite with pgvector installed. initdb takes about 4 s in WASM, so the
 * first call keeps a prepared data directory (in memory and in the temp dir) and later calls
 * start from a copy of it in well under a second. Used by tests, the migration sandbox and
 * the first start of an on-disk store (`dataDir` must then be new or empty).
 */
export async function createPgliteFromTemplate(dataDir?: string): Promise<PGlite> {
  cached ??= templateBlob();
  try {
    return await PGlite.create({ ...(dataDir ? { dataDir } : {}), loadDataDir: await cached, extensions: pgliteExtensions });
  } catch (error) {
    cached = undefined;
    throw error;
  }
}
