import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LocalRuntime, startLocalRuntime } from '@dbops/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSslDisabled } from '../support/connections';
import { issueToken } from '../support/migration-execution';
import { createScratchDatabase, sql } from '../support/scratch-database';
import type { TestRuntime } from '../support/test-runtime';
import { freePort } from '@dbops/local/free-port';
import pg from 'pg';
import { analyzeMigrationDetailed } from '../../packages/core/src/analysis/analyze-migration';
import { draftSafePlan } from '../../packages/core/src/analysis/safe-plan/draft-safe-plan';
import { buildSchemaIndex } from '../../packages/core/src/analysis/schema-index';
import { readTargetSchema } from '../../packages/core/src/introspection/catalog-read';
import type { SchemaSnapshot } from '../../packages/core/src/introspection/schema-snapshot';

const LEASE_SECONDS = '2';
const repoRoot = path.resolve(__dirname, '../..');

/** The service as `npm start` runs it, in its own OS process, on a state directory we share. */
async function startServiceProcess(home: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/local/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, DBOPS_HOME: home, PORT: String(port), DBOPS_MIGRATION_LEASE_SECONDS: LEASE_SECONDS, DBOPS_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`service did not start: ${out}`)), 90_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('dbops is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${out}`)));
  });
  return child;
}

/** A runtime in this process on the same home directory (state on disk), with request helpers. */
async function inProcess(home: string): Promise<{ runtime: LocalRuntime; t: TestRuntime }> {
  const runtime = await startLocalRuntime({
    port: 0,
    env: { ...process.env, DBOPS_HOME: home, DBOPS_MIGRATION_LEASE_SECONDS: LEASE_SECONDS, DBOPS_LOG_LEVEL: 'silent' },
  });
  const request = async (method: string, p: string, o: { apiKey?: string; jwt?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (o.apiKey) headers['x-api-key'] = o.apiKey;
    if (o.jwt) headers.authorization = `Bearer ${o.jwt}`;
    const res = await fetch(`${runtime.baseUrl}${p}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
  };
  const t = { runtime, baseUrl: runtime.baseUrl, request, jwt: (u: string) => runtime.issuer.sign(u) } as unknown as TestRuntime;
  return { runtime, t };
}

describe('a killed executor', () => {
  let home: string;
  let db: { url: string; drop(): Promise<void> };
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'dbops-kill-'));
    db = await createScratchDatabase('mkill');
    await sql(db.url, 'CREATE TABLE audit (id serial PRIMARY KEY, note text)');
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await db?.drop();
    await rm(home, { recursive: true, force: true });
  });

  /** The user, an API key, the connection and an approval token for `migration`, made by a runtime in this process that is then stopped. */
  async function prepare(user: string, migration: string): Promise<{ key: string; connectionId: string; token: string }> {
    const setup = await inProcess(home);
    try {
      const key = (await setup.t.request('POST', '/api-keys', { jwt: await setup.runtime.issuer.sign(user), body: { name: 'k' } })).body.data.key as string;
      const conn = await setup.t.request('POST', '/connections', {
        apiKey: key,
        body: { name: 'db', db_type: 'postgresql_local', connection_string: withSslDisabled(db.url) },
      });
      expect(conn.status).toBe(201);
      const connectionId = conn.body.data.id as string;
      return { key, connectionId, token: await issueToken(setup.t, connectionId, migration) };
    } finally {
      await setup.runtime.close();
    }
  }

  /** The service started in its own process (`child`, to be killed) and given the migration: its base URL and the request. */
  async function submitInChild(run: { key: string; connectionId: string; token: string }, migration: string): Promise<{ base: string; requestId: string }> {
    const port = await freePort();
    child = await startServiceProcess(home, port);
    const base = `http://127.0.0.1:${port}/api/v1`;
    const accepted = await fetch(`${base}/migrations/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': run.key },
      body: JSON.stringify({ approval_token: run.token, sql: migration, connection_id: run.connectionId }),
    });
    expect(accepted.status).toBe(202);
    return { base, requestId: ((await accepted.json()) as { data: { request_id: string } }).data.request_id };
  }

  type Running = { status: string; progress: string | null; rows_done: number | null; rows_total: number | null };

  /** Polls the child's request until its batched step has done at least `rows` rows: the record then. */
  async function whenRowsDone(base: string, key: string, requestId: string, rows: number): Promise<Running> {
    for (let i = 0; ; i++) {
      const running = (await (await fetch(`${base}/migrations/requests/${requestId}`, { headers: { 'x-api-key': key } })).json()) as Running;
      if ((running.rows_done ?? 0) >= rows) return running;
      if (i > 600) throw new Error(`the batched step never got going: ${JSON.stringify(running)}`);
      await new Promise((res) => setTimeout(res, 20));
    }
  }

  /** Polls the request from `setup` until it ends (the poll that finds the lease expired puts it back to run): its record. */
  async function whenEnded(setup: { t: TestRuntime }, key: string, requestId: string): Promise<Record<string, any>> {
    let record = (await setup.t.request('GET', `/migrations/requests/${requestId}`, { apiKey: key })).body;
    const deadline = Date.now() + 60_000;
    while (record.status !== 'completed' && record.status !== 'failed' && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 200));
      record = (await setup.t.request('GET', `/migrations/requests/${requestId}`, { apiKey: key })).body;
    }
    return record;
  }

  /** The ledger of a resumed batched step: the done batches follow each other from the first key to the last, `rows` in all, done by two attempts (the killed one and the resumed one). */
  async function expectBatchesOnce(runtime: LocalRuntime, requestId: string, rows: number): Promise<void> {
    const batches = (
      await runtime.container.store.query<{ lower_key: string | null; upper_key: string | null; rows: string; state: string; attempt_id: string }>(
        'SELECT lower_key, upper_key, rows::text AS rows, state, attempt_id::text FROM migration_request_batches WHERE request_id = $1 ORDER BY batch_no',
        [requestId],
      )
    ).rows;
    const done = batches.filter((b) => b.state === 'done');
    expect(done[0]!.lower_key).toBeNull();
    expect(done.at(-1)!.upper_key).toBeNull();
    for (let i = 1; i < done.length; i++) expect(done[i]!.lower_key).toBe(done[i - 1]!.upper_key);
    expect(done.reduce((n, b) => n + Number(b.rows), 0)).toBe(rows);
    expect(batches.every((b) => b.state !== 'pending')).toBe(true);
    expect(new Set(done.map((b) => b.attempt_id)).size).toBe(2);
  }

  it('leaves a request that is later marked failed, never re-run, with the transaction rolled back', { timeout: 240_000 }, async () => {
    // 1. Set up the user, an API key, the connection and an approval token, then stop.
    const migration = "INSERT INTO audit (note) VALUES ('should never be committed');\nSELECT pg_sleep(20);";
    const { key, connectionId, token } = await prepare('alice', migration);

    // 2. The service in its own process accepts the migration; kill it mid-statement.
    const { base, requestId } = await submitInChild({ key, connectionId, token }, migration);
    for (let i = 0; ; i++) {
      const r = (await (await fetch(`${base}/migrations/requests/${requestId}`, { headers: { 'x-api-key': key } })).json()) as { progress: string | null };
      if (r.progress?.startsWith('statement 2 of 2')) break;
      if (i > 400) throw new Error('migration never reached statement 2');
      await new Promise((res) => setTimeout(res, 50));
    }
    child!.kill('SIGKILL');
    await new Promise((res) => child!.once('exit', res));

    // 3. A fresh process finds the request executing until the lease runs out, then failed.
    const setup = await inProcess(home);
    try {
      const first = await setup.t.request('GET', `/migrations/requests/${requestId}`, { apiKey: key });
      expect(first.status).toBe(200);
      let record = first.body;
      const deadline = Date.now() + 15_000;
      while (record.status === 'executing' && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 200));
        record = (await setup.t.request('GET', `/migrations/requests/${requestId}`, { apiKey: key })).body;
      }
      expect(record).toMatchObject({
        status: 'failed',
        progress: null,
        result: null,
        error: { code: 'EXECUTOR_LOST', statement_index: 1, applied_non_transactional: [], committed_transactional: [], rolled_back: true },
      });
      expect(record.error.message).toMatch(/stopped renewing its lease/);
      expect(record.completed_at).toEqual(expect.any(String));

      // Never re-run: a redelivery does nothing, the insert never committed, the connection is free.
      const { handler } = await import('@dbops/functions/executor/migration-executor');
      const redelivery = { Records: [{ messageId: 'm', body: JSON.stringify({ requestId }) }] } as Parameters<typeof handler>[0];
      expect(await handler(redelivery)).toEqual({ batchItemFailures: [] });
      expect(await sql(db.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 0 }]);
      const next = 'SELECT 1;';
      const again = await setup.t.request('POST', '/migrations/execute', {
        apiKey: key,
        body: { approval_token: await issueToken(setup.t, connectionId, next), sql: next, connection_id: connectionId },
      });
      expect(again.status).toBe(202);
    } finally {
      await setup.runtime.close();
    }
  });

  it(
    'rebuilds the record from the catalog: killed during ALTER; CREATE INDEX CONCURRENTLY; ALTER, the index finished and is valid',
    { timeout: 240_000 },
    async () => {
      await sql(db.url, 'CREATE TABLE items (id int); INSERT INTO items SELECT generate_series(1, 1000); CREATE TABLE other (x int)');
      const migration = 'ALTER TABLE items ADD COLUMN a int;\nCREATE INDEX CONCURRENTLY items_id_idx ON items (id);\nALTER TABLE items ADD COLUMN b int;';
      const { key, connectionId, token } = await prepare('bob', migration);

      // An open snapshot in the database: CREATE INDEX CONCURRENTLY waits for it before it finishes.
      const blocker = new pg.Client({ connectionString: db.url });
      await blocker.connect();
      await blocker.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await blocker.query('SELECT count(*) FROM other');

      const { base, requestId } = await submitInChild({ key, connectionId, token }, migration);
      for (let i = 0; ; i++) {
        const r = (await (await fetch(`${base}/migrations/requests/${requestId}`, { headers: { 'x-api-key': key } })).json()) as { progress: string | null };
        if (r.progress?.startsWith('statement 2 of 3')) break;
        if (i > 400) throw new Error('migration never reached statement 2');
        await new Promise((res) => setTimeout(res, 50));
      }
      await new Promise((res) => setTimeout(res, 300));
      child!.kill('SIGKILL');
      await new Promise((res) => child!.once('exit', res));

      // The executor is gone; its CREATE INDEX CONCURRENTLY goes on on the server and finishes.
      await blocker.query('COMMIT');
      await blocker.end();
      for (let i = 0; ; i++) {
        const [row] = await sql<{ valid: boolean | null }>(
          db.url,
          "SELECT (SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('items_id_idx')) AS valid",
        );
        if (row!.valid === true) break;
        if (i > 200) throw new Error('the index never became valid');
        await new Promise((res) => setTimeout(res, 50));
      }

      const setup = await inProcess(home);
      try {
        let record = (await setup.t.request('GET', `/migrations/requests/${requestId}`, { apiKey: key })).body;
        const deadline = Date.now() + 15_000;
        while (record.status === 'executing' && Date.now() < deadline) {
          await new Promise((res) => setTimeout(res, 200));
          record = (await setup.t.request('GET', `/migrations/requests/${requestId}`, { apiKey: key })).body;
        }
        // What is really there: the first ALTER committed, the index exists and is valid, the last ALTER never ran.
        expect(record).toMatchObject({
          status: 'failed',
          error: {
            code: 'EXECUTOR_LOST',
            statement_index: 1,
            committed_transactional: [0],
            applied_non_transactional: [{ statement_index: 1, sql: 'CREATE INDEX CONCURRENTLY items_id_idx ON items (id)' }],
            invalid_indexes: [],
            rolled_back: false,
            catalog_check: {
              statements: [
                { statement_index: 0, state: 'applied' },
                { statement_index: 1, state: 'applied', evidence: 'index items_id_idx exists' },
                { statement_index: 2, state: 'not_applied' },
              ],
            },
          },
        });
        expect(record.error.message).toMatch(/rebuilt from the database catalog/);
        const columns = await sql<{ attname: string }>(
          db.url,
          "SELECT attname FROM pg_attribute WHERE attrelid = 'items'::regclass AND attnum > 0 ORDER BY attnum",
        );
        expect(columns.map((c) => c.attname)).toEqual(['id', 'a']);
        // Checked once: a second poll answers the same record.
        const again = (await setup.t.request('GET', `/migrations/requests/${requestId}`, { apiKey: key })).body;
        expect(again.error.catalog_check.checked_at).toBe(record.error.catalog_check.checked_at);
      } finally {
        await setup.runtime.close();
      }
    },
  );

  it('resumes a batched step after the executor is killed mid-backfill, repeating no batch and skipping none', { timeout: 240_000 }, async () => {
    // n = n + 1 is not idempotent: a batch run twice leaves 2, a skipped one 0.
    await sql(db.url, 'CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL DEFAULT 0); INSERT INTO counters (id) SELECT generate_series(1, 3000)');
    const migration = '-- dbops:batched key=id size=100 pause_ms=50\nUPDATE counters SET n = n + 1;';
    const { key, connectionId, token } = await prepare('carol', migration);

    const { base, requestId } = await submitInChild({ key, connectionId, token }, migration);
    const running = await whenRowsDone(base, key, requestId, 500);
    child!.kill('SIGKILL');
    await new Promise((res) => child!.once('exit', res));
    // Progress while it ran: rows counted at the step's start, and the batch in hand.
    expect(running).toMatchObject({ status: 'executing', rows_total: 3000 });
    expect(running.progress).toMatch(/^statement 1 of 1: batch \d+ \(\d+ of 3000 rows done\)/);
    const [{ partial }] = (await sql<{ partial: number }>(db.url, 'SELECT count(*)::int AS partial FROM counters WHERE n = 1')) as [{ partial: number }];
    expect(partial).toBeLessThan(3000);

    // A fresh process: the poll that finds the lease expired puts the request back to run, and it finishes.
    const setup = await inProcess(home);
    try {
      const record = await whenEnded(setup, key, requestId);
      expect(record, JSON.stringify(record.error)).toMatchObject({ status: 'completed', progress: null, rows_done: 3000, rows_total: 3000, error: null });
      expect(await sql(db.url, 'SELECT n, count(*)::int AS rows FROM counters GROUP BY n')).toEqual([{ n: 1, rows: 3000 }]);

      // The ledger: the killed run did some batches, the resumed one the rest, none twice.
      await expectBatchesOnce(setup.runtime, requestId, 3000);
    } finally {
      await setup.runtime.close();
    }
  });

  it(
    'resumes an expand/contract backfill after the executor is killed mid-way; the trigger keeps the shadow in step meanwhile; the swap completes',
    { timeout: 240_000 },
    async () => {
      await sql(db.url, 'CREATE TABLE tallies (id int PRIMARY KEY, n int NOT NULL); INSERT INTO tallies SELECT g, g * 7 FROM generate_series(1, 3000) g');
      // The safe plan dbops drafts for the type change, on the table as introspection reads it (its
      // size set to a large table's, so that the change needs a plan), in batches of 100 rows.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const content = await readTargetSchema(client).finally(() => client.end());
      const snapshot = { ...content, snapshot_id: 's', connection_id: 'c', introspected_at: new Date().toISOString() } as SchemaSnapshot;
      snapshot.tables.find((t) => t.name === 'tallies')!.row_estimate = 2_000_000;
      const analysis = await analyzeMigrationDetailed('ALTER TABLE tallies ALTER COLUMN n TYPE bigint', snapshot, { connectionId: 'c', sandbox: false });
      const drafted = draftSafePlan(
        analysis.parsed,
        analysis.items.map((i) => i.facts),
        analysis.report.statements,
        buildSchemaIndex(snapshot),
        { size: 100, pauseMs: 50 },
      );
      expect(drafted.reason).toBeNull();
      const migration = drafted.draft!.combined_script;
      expect(migration).toContain('-- dbops:batched key=id size=100 pause_ms=50\nUPDATE public.tallies SET dbops_new_n = n WHERE dbops_new_n IS NULL;');
      const { key, connectionId, token } = await prepare('dave', migration);
      const { base, requestId } = await submitInChild({ key, connectionId, token }, migration);
      const running = await whenRowsDone(base, key, requestId, 500);
      child!.kill('SIGKILL');
      await new Promise((res) => child!.once('exit', res));
      expect(running.rows_total).toBe(3000);
      // While no executor runs, writers go on: the trigger fills the shadow of what they write.
      await sql(db.url, 'INSERT INTO tallies VALUES (3001, 5); UPDATE tallies SET n = n + 1 WHERE id = 2999');

      const setup = await inProcess(home);
      try {
        const record = await whenEnded(setup, key, requestId);
        expect(record, JSON.stringify(record.error)).toMatchObject({ status: 'completed', error: null });
        // 2999 rows: the row updated meanwhile already had its shadow value, so no batch touched it again.
        await expectBatchesOnce(setup.runtime, requestId, 2999);
        const columns = await sql<{ name: string; type: string; notnull: boolean }>(
          db.url,
          "SELECT attname AS name, format_type(atttypid, atttypmod) AS type, attnotnull AS notnull FROM pg_attribute WHERE attrelid = 'tallies'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
        );
        expect(columns).toEqual([
          { name: 'id', type: 'integer', notnull: true },
          { name: 'n', type: 'bigint', notnull: true },
        ]);
        expect(
          await sql(
            db.url,
            'SELECT count(*)::int AS wrong FROM tallies WHERE n IS DISTINCT FROM (CASE id WHEN 3001 THEN 5 WHEN 2999 THEN 2999 * 7 + 1 ELSE id * 7 END)',
          ),
        ).toEqual([{ wrong: 0 }]);
      } finally {
        await setup.runtime.close();
      }
    },
  );
});
