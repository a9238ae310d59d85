import type { SlotSpec, UploadStorage, UploadTarget } from '@dbops/core/documents';
import { mkdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** Keys are made by the service (`uploads/<user>/<batch>/<position>`); anything else is refused. */
const KEY = /^uploads\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/\d{1,3}$/;

/** The local upload URL path prefix, served by the local runtime before the API gateway. */
export const LOCAL_UPLOAD_PREFIX = '/local-uploads/';

/**
 * Upload storage of the local runtime: files under `$DBOPS_HOME/uploads`, directories 0700 and
 * files 0600 (owner only: they are the user's business documents). A slot is a PUT to
 * `<origin>/local-uploads/<token>`, served by `slot-upload-endpoint.ts`.
 */
export class LocalUploadStorage implements UploadStorage {
  readonly name = 'local';
  readonly #home: string;
  readonly #origin: () => string;

  constructor(home: string, origin: () => string) {
    this.#home = home;
    this.#origin = origin;
  }

  /** The file of a key. */
  pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error('invalid upload key');
    return path.join(this.#home, key);
  }

  /** Creates the directory a key's file goes in, owner-only. */
  async prepare(key: string): Promise<string> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    return file;
  }

  async createTarget(slot: SlotSpec): Promise<UploadTarget> {
    return { method: 'PUT', url: `${this.#origin()}${LOCAL_UPLOAD_PREFIX}${slot.token}`, headers: { 'content-type': slot.contentType }, fields: {} };
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.pathOf(key)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  async read(key: string): Promise<Uint8Array | undefined> {
    return readFile(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  }

  async remove(keys: readonly string[]): Promise<void> {
    const dirs = new Set<string>();
    for (const key of keys) {
      const file = this.pathOf(key);
      dirs.add(path.dirname(file));
      await rm(file, { force: true });
      // An upload cut off mid-stream (the process stopped) leaves its partial file.
      await rm(`${file}.part`, { force: true });
    }
    // The batch directory goes once it is empty (rmdir of a non-empty one fails and is ignored).
    for (const dir of dirs) await rmdir(dir).catch(() => undefined);
  }
}
