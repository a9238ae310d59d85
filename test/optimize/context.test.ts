import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { optimize, seedShop } from '../support/optimize';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

/** Business documents as context: they decide SELECT * narrowing, and then context_used is true. */
let t: TestRuntime;
let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let key: string;
let conn: string;

beforeAll(async () => {
  t = await startTestRuntime();
  db = await createScratchDatabase('optctx');
  await seedShop(db.url, 0.2);
  key = await t.apiKey('ctx-alice');
  conn = (await registerConnection(t, 'ctx-alice', db.url)).id;
  const form = new FormData();
  form.append(
    'files',
    new Blob(
      ['# Regional mailing\n\nThe regional mailing job reads the customers table: for each customer it uses the email and the region, nothing else.\n'],
      { type: 'text/markdown' },
    ),
    'mailing.md',
  );
  const up = await t.request('POST', `/connections/${conn}/documents/upload`, { apiKey: key, body: form });
  expect(up.status, up.text).toBeLessThan(300);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('context', { timeout: 120_000 }, () => {
  it('narrows SELECT * to the columns the documents name and sets context_used', async () => {
    const res = await optimize(t, key, conn, `SELECT * FROM customers WHERE region = 'north'`);
    expect(res.status, res.text).toBe(200);
    const narrowed = res.body.alternatives.find((a) => a.explanation.includes('mailing.md'));
    expect(narrowed?.rewritten_sql).toBe(`SELECT id, email, region FROM customers WHERE region = 'north'`);
    expect(res.body.context_used).toBe(true);
  });

  it('context_used stays false when no document shaped the answer', async () => {
    const res = await optimize(t, key, conn, `SELECT id FROM orders WHERE qty = 2`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.context_used).toBe(false);
  });
});
