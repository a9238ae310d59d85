import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeImage } from './pglite-data-dir-image';
import { createPgliteFromTemplate, setPgliteCacheDir, templateImageFile } from './pglite-template';

describe('PGlite template image', () => {
  let dir: string;
  afterAll(async () => {
    setPgliteCacheDir(undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('replaces a damaged cached image, and starts in-memory and on-disk instances with pgvector from it', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dbops-template-'));
    setPgliteCacheDir(dir);
    // A file a crashed writer or another version left behind under the expected name.
    const name = templateImageFile();
    await writeFile(name, 'not an image');
    const db = await createPgliteFromTemplate();
    try {
      expect((await db.query<{ extname: string }>('SELECT extname FROM pg_extension ORDER BY 1')).rows.map((r) => r.extname)).toEqual(['plpgsql', 'vector']);
    } finally {
      await db.close();
    }
    expect(() => decodeImage(new Uint8Array(0))).toThrow();
    expect(decodeImage(await readFile(name)).image.files.length).toBeGreaterThan(100);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const onDisk = path.join(dir, 'state');
    const stored = await createPgliteFromTemplate(onDisk);
    try {
      await stored.exec("CREATE TABLE kept (v vector(2)); INSERT INTO kept VALUES ('[1,2]')");
    } finally {
      await stored.close();
    }
    const { PGlite } = await import('@electric-sql/pglite');
    const { pgliteExtensions } = await import('./pglite-extensions');
    const reopened = await PGlite.create({ dataDir: onDisk, extensions: pgliteExtensions });
    try {
      expect((await reopened.query<{ v: string }>('SELECT v::text FROM kept')).rows).toEqual([{ v: '[1,2]' }]);
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
