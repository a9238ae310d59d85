import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { captureDataDir, decodeImage, encodeImage, startFromImage } from '../../store/pglite-data-dir-image';
import { sandboxBaseImage } from './sandbox-pool';

const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('data directory images', () => {
  it('start instances holding the captured state, each on its own copy of the bytes', async () => {
    const source = await startFromImage(await sandboxBaseImage());
    await source.exec("CREATE TABLE kept (id int PRIMARY KEY, note text); INSERT INTO kept VALUES (1, 'one'), (2, 'two'); CHECKPOINT");
    const image = captureDataDir(source);
    await source.close();
    const before = digest(image.bytes);

    const a = await startFromImage(image);
    expect((await a.query('SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 2 }]);
    await a.exec("INSERT INTO kept VALUES (3, 'three'); CREATE TABLE leaked (id int); CHECKPOINT");
    await a.close();

    // What the first instance wrote is neither in the image nor in the next instance.
    expect(digest(image.bytes)).toBe(before);
    const b = await startFromImage(image);
    expect((await b.query('SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 2 }]);
    expect((await b.query("SELECT to_regclass('public.leaked') AS r")).rows).toEqual([{ r: null }]);
    await b.close();
  }, 120_000);

  it('leaves out the template databases (a sandbox never creates a database)', async () => {
    const db = await startFromImage(await sandboxBaseImage());
    expect((await db.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY 1')).rows.map((r) => r.datname)).toEqual(['postgres']);
    await db.close();
  }, 120_000);

  it('round-trips through the disk encoding and rejects anything else', () => {
    const image = {
      dirs: ['/base', '/base/5'],
      files: [
        { path: '/PG_VERSION', start: 0, end: 3 },
        { path: '/base/5/1', start: 3, end: 7 },
      ],
      bytes: new Uint8Array([49, 55, 10, 1, 2, 3, 4]),
    };
    const { image: back, meta } = decodeImage(encodeImage(image, { key: 'k' }));
    expect(back.dirs).toEqual(image.dirs);
    expect(back.files).toEqual(image.files);
    expect([...back.bytes]).toEqual([...image.bytes]);
    expect(meta).toEqual({ key: 'k' });
    expect(() => decodeImage(new Uint8Array([1, 2, 3]))).toThrow();
    const bad = encodeImage({ ...image, files: [{ path: '/x', start: 0, end: 99 }] }, {});
    expect(() => decodeImage(bad)).toThrow(/corrupt/);
  });
});
