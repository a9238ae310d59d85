import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { openBatch, uploadDocuments } from '../support/documents';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

/** Every bidirectional control the service refuses in a filename. */
const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];

describe('filenames with bidirectional control characters', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let alice: string;
  let conn: string;
  const listed = async (): Promise<string[]> =>
    (await t.request('GET', `/connections/${conn}/documents`, { jwt: alice })).body.data.map((d: { filename: string }) => d.filename);

  beforeAll(async () => {
    t = await startTestRuntime();
    db = await createScratchDatabase('bidi');
    alice = await t.jwt('alice');
    conn = (await registerConnection(t, 'alice', db.url)).id;
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('refuses each of them in a multipart upload with the validation body, and stores nothing of the batch', async () => {
    for (const c of BIDI) {
      // "invoice<RLO>fdp.md" shows as "invoicedm.pdf" in a listing.
      const name = `invoice${c}fdp.md`;
      const res = await uploadDocuments(t, { jwt: alice }, conn, [
        { name: 'fine.md', content: '# Fine\n\nA plain file.' },
        { name, content: '# Not a PDF\n\nMarkdown in disguise.' },
      ]);
      expect(res.status, `U+${c.codePointAt(0)!.toString(16)}`).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'files', 1, 'filename'], type: 'value_error', input: name })]);
      expect(res.body.detail[0].msg).toMatch(/bidirectional control/);
    }
    expect(await listed()).toEqual([]);
  });

  it('refuses them when an upload batch is opened, naming every such file', async () => {
    const res = await openBatch(t, { jwt: alice }, conn, [
      { name: 'report\u202Etxt.sql', content: 'select 1;' },
      { name: 'ok.md', content: '# ok' },
      { name: '\u2067notes\u2069.txt', content: 'notes' },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'files', 0, 'filename'],
      ['body', 'files', 2, 'filename'],
    ]);
    expect(res.body.detail[0].ctx).toEqual({ character: 'U+202E' });
  });

  it('still accepts names in right-to-left scripts, which need no control characters', async () => {
    const res = await uploadDocuments(t, { jwt: alice }, conn, [
      { name: 'دليل المستخدم.md', content: '# دليل\n\nنص عربي.' },
      { name: 'מדריך.txt', content: 'טקסט' },
    ]);
    expect(res.status).toBe(200);
    expect((await listed()).sort()).toEqual(['دليل المستخدم.md', 'מדריך.txt'].sort());
  });
});
