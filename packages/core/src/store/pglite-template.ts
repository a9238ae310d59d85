import { PGlite } from '@electric-sql/pglite';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { captureDataDir, type DataDirImage, decodeImage, encodeImage, startFromImage } from './pglite-data-dir-image';
import { pgliteExtensions } from './pglite-extensions';

/** Names the cached images: a new PGlite or a new set of extensions must not read an old one. */
const TEMPLATE_VERSION = 'pglite-0.4-vector-2';
let cacheDir: string | undefined;

/** Where prepared data directories are cached (`DBOPS_PGLITE_CACHE`); set once at start, default the OS temp dir. */
export function setPgliteCacheDir(dir: string | undefined): void {
  cacheDir = dir;
}

const imageFile = (name: string): string => path.join(cacheDir ?? tmpdir(), `dbops-${TEMPLATE_VERSION}-${name}.image`);

/** Where the template image is cached now (tests damage it). */
export const templateImageFile = (): string => imageFile('template');

const building = new Map<string, Promise<DataDirImage>>();

/**
 * The image named `name`, read from the cache directory, or built once by `build` and written
 * there for every later process (test workers, sandbox threads, the next `npm start`). Written to
 * a temporary name and renamed, so a concurrent reader never sees half a file; an unreadable
 * file is rebuilt.
 */
export function cachedPgliteImage(name: string, build: () => Promise<DataDirImage>): Promise<DataDirImage> {
  const file = imageFile(name);
  let image = building.get(file);
  if (image) return image;
  image = (async () => {
    try {
      const { image: read, meta } = decodeImage(await readFile(file));
      if (meta === TEMPLATE_VERSION) return read;
    } catch {
      // missing or unreadable: built below
    }
    const built = await build();
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, encodeImage(built, TEMPLATE_VERSION));
    await rename(tmp, file);
    return built;
  })();
  building.set(file, image);
  image.catch(() => building.delete(file)); // the next caller tries again
  return image;
}

/** initdb with pgvector created, checkpointed: about 4 s in WASM, paid once per cache directory. */
const templateImage = (): Promise<DataDirImage> =>
  cachedPgliteImage('template', async () => {
    const db = await PGlite.create({ extensions: pgliteExtensions });
    try {
      await db.exec('CREATE EXTENSION IF NOT EXISTS vector; CHECKPOINT');
      return captureDataDir(db);
    } finally {
      await db.close();
    }
  });

/** Writes an image's directories and files into an empty directory on disk. */
async function writeImage(image: DataDirImage, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const d of image.dirs) await mkdir(path.join(dir, d), { recursive: true, mode: 0o700 });
  for (const f of image.files) await writeFile(path.join(dir, f.path), image.bytes.subarray(f.start, f.end), { mode: 0o600 });
}

/**
 * A fresh PGlite with pgvector installed, started from the prepared template image instead of
 * running initdb: in memory when `dataDir` is omitted (tests, the sandbox's base), else the first
 * start of an on-disk store (`dataDir` must then be new or empty). Starting from the image's
 * files takes a fraction of a second; loading the same data directory as a tarball
 * (`loadDataDir`) took seconds, which every test runtime and sandbox thread paid.
 */
export async function createPgliteFromTemplate(dataDir?: string): Promise<PGlite> {
  const image = await templateImage();
  if (!dataDir) return startFromImage(image);
  await writeImage(image, dataDir);
  return PGlite.create({ dataDir, extensions: pgliteExtensions });
}
