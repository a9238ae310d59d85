import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { S3Error } from './s3-error';

/** What S3 keeps beside an object's bytes, and answers in HEAD, GET and listings. */
export interface StoredObject {
  key: string;
  size: number;
  /** Quoted MD5 of the bytes, as S3's ETag of a single-part upload. */
  etag: string;
  contentType: string;
  lastModified: Date;
}

interface MetaFile {
  key: string;
  size: number;
  etag: string;
  contentType: string;
  lastModified: string;
}

/**
 * The objects of the stand-in's buckets on disk, `<root>/<bucket>/<sha256 of key>` with a
 * `.json` beside it (keys are any UTF-8 up to 1,024 bytes and may both be and contain a
 * "directory", so they are not paths). Directories 0700, files 0600: uploads are users' business
 * documents. Bytes are written aside and renamed into place, so a reader sees a whole object or
 * none.
 */
export class ObjectStore {
  constructor(readonly root: string) {}

  #dir(bucket: string): string {
    return path.join(this.root, bucket);
  }

  #file(bucket: string, key: string): string {
    return path.join(this.#dir(bucket), createHash('sha256').update(key, 'utf8').digest('hex'));
  }

  async createBucket(bucket: string): Promise<void> {
    await mkdir(path.join(this.#dir(bucket), '.incoming'), { recursive: true, mode: 0o700 });
  }

  /**
   * Stores `source` as `key`, refusing it (and keeping nothing) once it passes `maxBytes` or when
   * it ends under `minBytes`, with S3's EntityTooLarge / EntityTooSmall.
   */
  async put(bucket: string, key: string, source: Readable, o: { contentType: string; minBytes: number; maxBytes: number }): Promise<StoredObject> {
    const incoming = path.join(this.#dir(bucket), '.incoming', randomUUID());
    const handle = await open(incoming, 'w', 0o600);
    const md5 = createHash('md5');
    let size = 0;
    try {
      for await (const chunk of source) {
        const piece = chunk as Buffer;
        size += piece.length;
        if (size > o.maxBytes)
          throw new S3Error(400, 'EntityTooLarge', 'The upload is larger than the policy allows (content-length-range).', {
            ProposedSize: size,
            MaxSizeAllowed: o.maxBytes,
          });
        md5.update(piece);
        await handle.write(piece);
      }
      if (size < o.minBytes)
        throw new S3Error(400, 'EntityTooSmall', 'The upload is smaller than the policy allows (content-length-range).', {
          ProposedSize: size,
          MinSizeAllowed: o.minBytes,
        });
      await handle.close();
      const object: StoredObject = { key, size, etag: `"${md5.digest('hex')}"`, contentType: o.contentType, lastModified: new Date() };
      const file = this.#file(bucket, key);
      await rename(incoming, file);
      const meta: MetaFile = { ...object, lastModified: object.lastModified.toISOString() };
      await writeFile(`${file}.json.tmp`, JSON.stringify(meta), { mode: 0o600 });
      await rename(`${file}.json.tmp`, `${file}.json`);
      return object;
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(incoming, { force: true });
      throw error;
    }
  }

  async head(bucket: string, key: string): Promise<StoredObject | undefined> {
    return this.#readMeta(`${this.#file(bucket, key)}.json`);
  }

  async read(bucket: string, key: string): Promise<{ object: StoredObject; body: ReadStream } | undefined> {
    const object = await this.head(bucket, key);
    return object ? { object, body: createReadStream(this.#file(bucket, key)) } : undefined;
  }

  /** Deletes a key; deleting one that does not exist is no error, as in S3. */
  async delete(bucket: string, key: string): Promise<void> {
    const file = this.#file(bucket, key);
    await rm(`${file}.json`, { force: true });
    await rm(file, { force: true });
  }

  /** Every object of the bucket, in key order (UTF-8 bytes, as S3 lists). */
  async list(bucket: string): Promise<StoredObject[]> {
    const names = (await readdir(this.#dir(bucket))).filter((n) => n.endsWith('.json'));
    const objects = (await Promise.all(names.map((n) => this.#readMeta(path.join(this.#dir(bucket), n))))).filter((o): o is StoredObject => !!o);
    return objects.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
  }

  async #readMeta(file: string): Promise<StoredObject | undefined> {
    try {
      const meta = JSON.parse(await readFile(file, 'utf8')) as MetaFile;
      return { ...meta, lastModified: new Date(meta.lastModified) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
