import { MemoryFS, PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from './pglite-extensions';

/**
 * A PGlite data directory held in memory: its directories, and its files as ranges of one
 * buffer. Taken from a running instance after a CHECKPOINT, it starts any number of new
 * instances, each on its own copy of the bytes.
 */
export interface DataDirImage {
  /** Directories below the data directory, parents first, e.g. "/base", "/base/5". */
  dirs: string[];
  files: { path: string; start: number; end: number }[];
  bytes: Uint8Array;
}

/** Where PGlite keeps its data directory in the Emscripten file system. */
const DATA_DIR = '/pglite/data';

/** The part of Emscripten's FS API used here (PGlite types it loosely). */
interface EmscriptenFs {
  readdir(path: string): string[];
  stat(path: string): { mode: number; size: number };
  isDir(mode: number): boolean;
  open(path: string, flags: string): unknown;
  read(stream: unknown, buffer: Uint8Array, offset: number, length: number, position: number): number;
  close(stream: unknown): void;
  mkdir(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
}

const fsOf = (db: PGlite): EmscriptenFs => db.Module.FS as unknown as EmscriptenFs;

/**
 * Copies the data directory of `db` into an image. Run CHECKPOINT first so the files hold
 * everything and an instance started from the image has no WAL to replay.
 */
export function captureDataDir(db: PGlite): DataDirImage {
  const fs = fsOf(db);
  const dirs: string[] = [];
  const found: { path: string; size: number }[] = [];
  const walk = (dir: string): void => {
    for (const name of fs.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const full = `${dir}/${name}`;
      const st = fs.stat(full);
      if (fs.isDir(st.mode)) {
        dirs.push(full.slice(DATA_DIR.length));
        walk(full);
      } else found.push({ path: full, size: st.size });
    }
  };
  walk(DATA_DIR);
  const bytes = new Uint8Array(found.reduce((n, f) => n + f.size, 0));
  const files: DataDirImage['files'] = [];
  let at = 0;
  for (const f of found) {
    const stream = fs.open(f.path, 'r');
    try {
      const n = fs.read(stream, bytes, at, f.size, 0);
      if (n !== f.size) throw new Error(`short read of ${f.path}`);
    } finally {
      fs.close(stream);
    }
    files.push({ path: f.path.slice(DATA_DIR.length), start: at, end: at + f.size });
    at += f.size;
  }
  return { dirs, files, bytes };
}

/** Emscripten MEMFS nodes, as far as filling them directly goes. */
interface MemNode {
  node_ops: { mknod?: (parent: MemNode, name: string, mode: number, dev: number) => MemNode };
  contents?: unknown;
  usedBytes?: number;
}

const DIR_MODE = 0o40777; // what FS.mkdir gives
const FILE_MODE = 0o100666; // what FS.writeFile gives

/**
 * Fills MEMFS by creating each node under its parent directly: FS.writeFile resolves the whole
 * path of every file again, which for the thousand files of a 200-table clone cost more than the
 * bytes. Returns false (having created nothing) when MEMFS does not look as expected.
 */
function fillDirect(fs: EmscriptenFs & { lookupPath(path: string): { node: MemNode } }, image: DataDirImage): boolean {
  const root = fs.lookupPath(DATA_DIR).node;
  if (typeof root.node_ops?.mknod !== 'function') return false;
  const dirs = new Map<string, MemNode>([['', root]]);
  const child = (parentPath: string, name: string, mode: number): MemNode => {
    const parent = dirs.get(parentPath);
    if (!parent) throw new Error(`data directory image lists ${parentPath}/${name} before its directory`);
    return parent.node_ops.mknod!(parent, name, mode, 0);
  };
  for (const d of image.dirs) {
    const at = d.lastIndexOf('/');
    dirs.set(d, child(d.slice(0, at), d.slice(at + 1), DIR_MODE));
  }
  for (const f of image.files) {
    const at = f.path.lastIndexOf('/');
    const node = child(f.path.slice(0, at), f.path.slice(at + 1), FILE_MODE);
    node.contents = image.bytes.slice(f.start, f.end); // a private copy: the instance writes into it
    node.usedBytes = f.end - f.start;
  }
  return true;
}

/**
 * PGlite's in-memory file system, filled from an image before PostgreSQL starts. Loading a
 * tarball (`loadDataDir`) parses it and resolves every path component of every file again; a
 * data directory with a 200-table schema has over a thousand files, so that cost more than
 * starting PostgreSQL. Each file gets its own copy of the bytes, so an instance never writes
 * into the image.
 */
class ImageFs extends MemoryFS {
  constructor(private readonly image: DataDirImage) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    const fs = fsOf(this.pg!);
    fs.mkdir(DATA_DIR);
    if (fillDirect(fs as Parameters<typeof fillDirect>[0], this.image)) return;
    // Emscripten's own calls: slower, same result (MEMFS slices a buffer it does not own).
    for (const d of this.image.dirs) fs.mkdir(DATA_DIR + d);
    for (const f of this.image.files) fs.writeFile(DATA_DIR + f.path, this.image.bytes.subarray(f.start, f.end));
  }
}

/**
 * Server settings of instances started from an image (sandboxes, in-memory stores). PostgreSQL's
 * default 128 MB of shared buffers made PGlite grow and clear that much WASM memory at every
 * start; a schema clone with a few rows per table uses a fraction of 16 MB.
 */
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/** A new PGlite (pgvector loaded, like every embedded instance) on a private copy of `image`. */
export function startFromImage(image: DataDirImage): Promise<PGlite> {
  return PGlite.create({ fs: new ImageFs(image), extensions: pgliteExtensions, startParams });
}

const MAGIC = 'dbops-data-dir-image-1\n';

/** The image for the disk cache, as the chunks to write in order: a magic line, a JSON header, then the bytes. */
export function encodeImageParts(image: DataDirImage, meta: unknown): Uint8Array[] {
  const header = Buffer.from(JSON.stringify({ dirs: image.dirs, files: image.files.map((f) => [f.path, f.start, f.end]), meta }));
  const head = Buffer.allocUnsafe(MAGIC.length + 4);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(header.length, MAGIC.length);
  return [head, header, image.bytes];
}

/** `encodeImageParts` as one buffer. */
export const encodeImage = (image: DataDirImage, meta: unknown): Uint8Array => Buffer.concat(encodeImageParts(image, meta));

/** Reverse of `encodeImage`; throws on anything that is not a well-formed image. */
export function decodeImage(buf: Uint8Array): { image: DataDirImage; meta: unknown } {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('not a data directory image');
  const headerLength = b.readUInt32LE(MAGIC.length);
  const bodyAt = MAGIC.length + 4 + headerLength;
  const header = JSON.parse(b.toString('utf8', MAGIC.length + 4, bodyAt)) as { dirs: string[]; files: [string, number, number][]; meta: unknown };
  const bytes = new Uint8Array(b.buffer, b.byteOffset + bodyAt, b.byteLength - bodyAt);
  const files = header.files.map(([path, start, end]) => {
    if (!(start >= 0 && start <= end && end <= bytes.length)) throw new Error('corrupt data directory image');
    return { path, start, end };
  });
  return { image: { dirs: header.dirs, files, bytes }, meta: header.meta };
}
