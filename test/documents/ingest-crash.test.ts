import { loadLocalIssuer } from '@dbops/local';
import { PgliteStore } from '@dbops/core/store/pglite-store';
import { findRelevantDocumentChunks } from '@dbops/core/context';
import { HashingEmbedder } from '@dbops/core/embeddings';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { type UploadFile, uploadThroughSlots, waitForBatch } from '../support/documents';
import { createScratchDatabase } from '../support/scratch-database';
import type { ApiResponse, TestRuntime } from '../support/test-runtime';

const ROOT = path.resolve(__dirname, '../..');

/** Starts the runtime in a child process on `home`; resolves with its base URL once listening. */
function startChild(home: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/crashable-runtime.ts')], {
    cwd: ROOT,
    env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\S+)/.exec(out);
      if (m) resolve({ child, baseUrl: `${m[1]}/api/v1` });
    });
    child.once('exit', (code, signal) => reject(new Error(`runtime exited before it was ready (${code ?? signal})`)));
  });
}

const exited = (child: ChildProcess): Promise<string | null> => new Promise((r) => child.once('exit', (_code, signal) => r(signal)));

/** The TestRuntime calls the helpers need, against a child process. */
function client(baseUrl: string, home: string): Pick<TestRuntime, 'request' | 'jwt'> {
  return {
    jwt: async (user) => (await loadLocalIssuer(home)).sign(user),
    async request(method, p, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.jwt) headers.authorization = `Bearer ${o.jwt}`;
      let body: string | undefined;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] = 'application/json';
      }
      const res = await fetch(`${baseUrl}${p}`, { method, headers, body });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text } as ApiResponse;
    },
  };
}

/** Generated files big enough that staging them takes a while: Markdown, text and SQL. */
function files(): UploadFile[] {
  const para = (i: number) => `Paragraph ${i}: orders are reconciled against invoices every night, refunds within five days.`;
  return Array.from({ length: 6 }, (_, f) => {
    const body = Array.from({ length: 1500 }, (_, i) => para(f * 10_000 + i)).join('\n\n');
    if (f % 3 === 0) return { name: `guide-${f}.md`, content: `# Guide ${f}\n\n${body}` };
    if (f % 3 === 1) return { name: `notes-${f}.txt`, content: body };
    return { name: `seed-${f}.sql`, content: Array.from({ length: 3000 }, (_, i) => `INSERT INTO orders (id) VALUES (${f * 10_000 + i});`).join('\n') };
  });
}

describe('ingestion after a crash in the middle', () => {
  let home: string;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'dbops-crash-'));
    db = await createScratchDatabase('crash');
  });
  afterAll(async () => {
    await db.drop();
    await rm(home, { recursive: true, force: true });
  });

  // Two runtimes start in child processes, one after the other: slow on a loaded 2-core machine.
  it('holds every chunk exactly once after a SIGKILL mid-ingestion and a restart', { timeout: 300_000 }, async () => {
    // First run: upload and confirm, then die once two files are staged.
    const first = await startChild(home, { CRASH_AFTER_STAGED_FILES: '2' });
    const died = exited(first.child);
    const a = client(first.baseUrl, home);
    const jwt = await a.jwt('alice');
    const conn = (await registerConnection(a as TestRuntime, 'alice', db.url)).id;
    const confirmed = await uploadThroughSlots(a as TestRuntime, { jwt }, conn, files());
    expect(confirmed.status).toBe(202);
    const batchId = confirmed.body.data.batch_id as string;
    expect(await died).toBe('SIGKILL');

    // What the killed run left: chunks written straight into document_chunks (the two staged
    // files', and part of those in progress), none of them visible: no document row, no context.
    const crashed = await PgliteStore.open(path.join(home, 'state'));
    try {
      const written = await crashed.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunks WHERE connection_id = $1', [conn]);
      expect(written.rows[0]!.n).toBeGreaterThan(0);
      expect((await crashed.query('SELECT 1 FROM documents WHERE connection_id = $1', [conn])).rows).toEqual([]);
      const userId = (await crashed.query<{ user_id: string }>('SELECT user_id FROM document_batches WHERE id = $1', [batchId])).rows[0]!.user_id;
      const found = await findRelevantDocumentChunks(crashed, new HashingEmbedder(), {
        userId,
        connectionId: conn,
        query: 'orders are reconciled against invoices',
        tableNames: ['orders'],
        limit: 10,
      });
      expect(found).toEqual([]);
    } finally {
      await crashed.close();
    }

    // Second run: ingestion resumes from what was staged and completes.
    const second = await startChild(home);
    const b = client(second.baseUrl, home);
    const done = await waitForBatch(b as TestRuntime, { jwt }, conn, batchId, 300_000);
    expect(done.status).toBe('completed');
    expect(done.result.files_processed).toBe(6);

    // A reference: the same files through the multipart path on another connection.
    const refConn = (await registerConnection(b as TestRuntime, 'alice', db.url, { name: 'reference' })).id;
    const form = new FormData();
    for (const f of files()) form.append('files', new Blob([f.content]), f.name);
    const ref = await fetch(`${second.baseUrl}/connections/${refConn}/documents/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
      body: form,
    });
    const refBody = (await ref.json()) as { data: { documents: Array<{ filename: string; chunk_count: number }>; total_chunks: number } };
    expect(done.result.documents.map((d: { filename: string; chunk_count: number }) => [d.filename, d.chunk_count])).toEqual(
      refBody.data.documents.map((d) => [d.filename, d.chunk_count]),
    );

    const stopped = exited(second.child);
    second.child.kill('SIGTERM');
    await stopped;

    // The state on disk: every chunk once, numbered 0..n-1 per document, nothing left staged.
    const store = await PgliteStore.open(path.join(home, 'state'));
    try {
      const rows = await store.query<{ filename: string; n: number; distinct_n: number; max_index: number; chunk_count: number }>(
        `SELECT d.filename, count(*)::int AS n, count(DISTINCT c.content)::int AS distinct_n, max(c.chunk_index)::int AS max_index, d.chunk_count
         FROM documents d JOIN document_chunks c ON c.document_id = d.id WHERE d.connection_id = $1 GROUP BY d.filename, d.chunk_count ORDER BY d.filename`,
        [conn],
      );
      expect(rows.rows).toHaveLength(6);
      for (const r of rows.rows) {
        expect(r.n).toBe(r.chunk_count);
        expect(r.max_index).toBe(r.n - 1);
      }
      expect(rows.rows.reduce((s, r) => s + r.n, 0)).toBe(refBody.data.total_chunks);
      // Exactly once in storage too, not only among the visible chunks: the chunks the killed run
      // had written for files it had not finished (an abandoned generation) were deleted, and no
      // generation is left pending or awaiting deletion.
      const stored = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunks WHERE connection_id = $1', [conn]);
      expect(stored.rows[0]!.n).toBe(refBody.data.total_chunks);
      const generations = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_generations');
      expect(generations.rows[0]!.n).toBe(0);
    } finally {
      await store.close();
    }
    // The uploaded files were removed after ingestion.
    expect(await readdir(path.join(home, 'uploads'), { recursive: true }).then((e) => e.filter((x) => /\/\d+$/.test(x)))).toEqual([]);
  });
});
