import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestCli, project, runCli } from '../support/cli';
import { registerConnection } from '../support/connections';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('dbops documents upload: upload slots from the CLI', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let cli: Awaited<ReturnType<typeof buildTestCli>>;
  let p: ReturnType<typeof project>;
  let key: string;
  let conn: string;
  const dbops = (args: string[]) => runCli(cli.entry, args, { cwd: p.dir, env: { DBOPS_API_KEY: key, DBOPS_BASE_URL: t.baseUrl }, timeoutMs: 120_000 });
  const listed = async (): Promise<string[]> =>
    (await t.request('GET', `/connections/${conn}/documents`, { apiKey: key })).body.data.map((d: { filename: string }) => d.filename).sort();

  beforeAll(async () => {
    [t, db, cli] = await Promise.all([startTestRuntime(), createScratchDatabase('clidocs'), buildTestCli()]);
    key = await t.apiKey('doc-user');
    conn = (await registerConnection(t, 'doc-user', db.url)).id;
    p = project({
      'docs/handbook.md': '# Orders\n\nEvery order in the orders table ships within two days.\n\n# Refunds\n\nRefunds are logged in refunds.',
      'docs/schema.sql': 'CREATE TABLE orders (id bigint PRIMARY KEY);\nCREATE TABLE refunds (id bigint, order_id bigint REFERENCES orders);',
      'docs/binary.txt': 'text with a NUL \u0000 byte',
      'docs/tool.exe': 'MZ',
    });
  }, 180_000);

  afterAll(async () => {
    cli?.remove();
    p?.remove();
    await t?.close();
    await db?.drop();
  });

  it('uploads files through slots, waits for ingestion and prints each document', async () => {
    const r = await dbops(['documents', 'upload', '--connection', conn, 'docs/handbook.md', 'docs/schema.sql']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/batch [0-9a-f-]{36}: 2 files, \d+ chunks/);
    expect(r.stdout).toContain('handbook.md: 2 chunks');
    expect(r.stdout).toContain('schema.sql:');
    expect(await listed()).toEqual(['handbook.md', 'schema.sql']);
  });

  it('names each file the service refuses and stores nothing of the batch', async () => {
    const atOpening = await dbops(['documents', 'upload', '--connection', conn, 'docs/handbook.md', 'docs/tool.exe']);
    expect(atOpening.code).toBe(1);
    expect(atOpening.stderr).toContain('tool.exe: unsupported_type');
    const atUpload = await dbops(['documents', 'upload', '--connection', conn, '--json', 'docs/binary.txt']);
    expect(atUpload.code).toBe(1);
    expect(atUpload.stderr).toContain('binary.txt: not_utf8');
    expect(await listed()).toEqual(['handbook.md', 'schema.sql']);
  });

  it('refuses usage errors with exit 2', async () => {
    expect((await dbops(['documents', 'upload', '--connection', conn])).code).toBe(2);
    expect((await dbops(['documents', 'upload', '--connection', conn, 'docs/missing.md'])).stderr).toContain('docs/missing.md: not a readable file');
  });
});
