import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { uploadDocuments } from '../support/documents';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('uploaded documents in migration analysis', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let alice: string;
  let conn: string;
  const migration = 'ALTER TABLE invoices DROP COLUMN legacy_code';
  const analyze = () => t.request('POST', `/connections/${conn}/migrations/analyze`, { jwt: alice, body: { sql: migration } });

  beforeAll(async () => {
    t = await startTestRuntime();
    db = await createScratchDatabase('docana');
    await sql(db.url, 'CREATE TABLE invoices (id bigint PRIMARY KEY, legacy_code text, amount numeric(12,2))');
    alice = await t.jwt('alice');
    conn = (await registerConnection(t, 'alice', db.url)).id;
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('is schema-only before any document exists', async () => {
    const res = await analyze();
    expect(res.status).toBe(200);
    expect(res.body.business_narrative).toMatchObject({ schema_only: true, citations: [] });
    expect(res.body.context_used).toBe(false);
  });

  it('cites the uploaded document that names the affected table', async () => {
    const up = await uploadDocuments(t, { jwt: alice }, conn, [
      {
        name: 'month-end-close.md',
        content: '# Month-end close\nFinance exports the invoices table to the auditors; the legacy_code column maps to the old ERP.',
      },
    ]);
    expect(up.status).toBe(200);
    const res = await analyze();
    expect(res.status).toBe(200);
    const narrative = res.body.business_narrative;
    expect(narrative.schema_only).toBe(false);
    expect(res.body.context_used).toBe(true);
    expect(narrative.citations[0]).toMatchObject({ document_filename: 'month-end-close.md', excerpt: expect.stringContaining('invoices table') });
    expect(narrative.citations[0].relevance).toBeGreaterThanOrEqual(0.5);
    expect(narrative.affected_processes.join('\n')).toContain('month-end-close.md');
  });
});
