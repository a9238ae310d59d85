import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { SHOP_SCHEMA } from '../support/analysis';

const SLOW = 180_000;

describe('the sandbox clone built right after an introspection (local mode)', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;

  beforeAll(async () => {
    t = await startTestRuntime({ env: { DBOPS_SANDBOX_PREWARM: 'true' }, shape: 'local' });
    db = await createScratchDatabase('prewarm');
    await sql(db.url, SHOP_SCHEMA);
  }, SLOW);

  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it(
    'is ready before the first analysis asks, and the analysis uses it',
    async () => {
      const connectionId = (await registerConnection(t, 'warm', db.url)).id;
      const key = await t.apiKey('warm');
      // The clone cache's disk layer: one gzipped image per clone built.
      const images = async (): Promise<string[]> =>
        (await readdir(t.runtime.container.settings.sandbox.cacheDir).catch(() => [])).filter((f) => f.endsWith('.img.gz'));
      expect(await images()).toEqual([]);
      const intro = await t.request('POST', `/connections/${connectionId}/introspect`, { apiKey: key });
      expect(intro.status, intro.text).toBe(200);
      await Promise.allSettled([...t.runtime.container.background]);
      // Written in the background after the build: give the write a moment.
      for (let i = 0; i < 60 && (await images()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 500));
      const built = await images();
      expect(built).toHaveLength(1);
      const res = await t.request('POST', `/connections/${connectionId}/migrations/analyze`, {
        apiKey: key,
        body: { sql: 'ALTER TABLE orders ADD COLUMN note text' },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.sandbox_result.passed).toBe(true);
      expect(res.body.approval_token).toEqual(expect.any(String));
      // The same clone: no other image was built for the analysis.
      expect(await images()).toEqual(built);
    },
    SLOW,
  );
});
