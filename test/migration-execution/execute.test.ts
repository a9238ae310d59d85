import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { getLatestSnapshot } from '@dbops/core/introspection';
import { issueToken, ownerOf, waitForRequest, waitForStatus } from '../support/migration-execution';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const SEED = `
  DROP SCHEMA public CASCADE; CREATE SCHEMA public;
  CREATE TABLE orders (id bigint PRIMARY KEY, email text NOT NULL, total numeric(12,2));
  CREATE TABLE legacy_events (id int);
  CREATE TABLE audit (id serial PRIMARY KEY, note text);
  INSERT INTO orders VALUES (1, 'a@example.com', 10), (2, 'a@example.com', 20);
`;

describe('migration execution through HTTP', () => {
  let t: TestRuntime;
  let db: { url: string; drop(): Promise<void> };
  let other: { url: string; drop(): Promise<void> };
  let alice: string;
  let bob: string;
  let conn: string;
  let otherConn: string;
  let bobConn: string;
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };

  beforeAll(async () => {
    db = await createScratchDatabase('mexec');
    other = await createScratchDatabase('mexec_other');
    t = await startTestRuntime({ runtime: { clock } });
    alice = await t.apiKey('alice');
    bob = await t.apiKey('bob');
    conn = (await registerConnection(t, 'alice', db.url)).id;
    otherConn = (await registerConnection(t, 'alice', other.url, { name: 'other' })).id;
    bobConn = (await registerConnection(t, 'bob', other.url, { name: 'bobs' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await other?.drop();
  });
  beforeEach(async () => {
    offsetMs = 0;
    await sql(db.url, SEED);
  });

  const execute = async (body: Record<string, unknown>, apiKey = alice) => t.request('POST', '/migrations/execute', { apiKey, body });

  it('analyze -> execute -> poll -> completed, with the schema change reported', async () => {
    const migration =
      'CREATE TABLE customers (id bigint PRIMARY KEY, name varchar(80));\nALTER TABLE orders ADD COLUMN customer_id bigint;\nDROP TABLE legacy_events;';
    // Step one: the real analysis endpoint issues the token.
    const analysis = await t.request('POST', `/connections/${conn}/migrations/analyze`, { apiKey: alice, body: { sql: migration } });
    expect(analysis.status).toBe(200);
    expect(analysis.body.sandbox_result.passed).toBe(true);
    const token = analysis.body.approval_token as string;
    expect(token).toEqual(expect.any(String));
    const res = await execute({ approval_token: token, sql: migration, connection_id: conn });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ success: true, data: { request_id: expect.any(String), status: 'pending' }, error: null });
    const id = res.body.data.request_id as string;

    const done = await waitForRequest(t, alice, id);
    expect(done).toEqual({
      request_id: id,
      status: 'completed',
      progress: null,
      rows_done: null,
      rows_total: null,
      sql: migration,
      connection_id: conn,
      result: {
        tables_added: ['customers'],
        tables_removed: ['legacy_events'],
        columns_added: [{ table: 'orders', column: 'customer_id', type: 'bigint' }],
        execution_time_ms: expect.any(Number),
      },
      error: null,
      created_at: expect.any(String),
      started_at: expect.any(String),
      completed_at: expect.any(String),
    });
    expect(Date.parse(done.created_at)).toBeLessThanOrEqual(Date.parse(done.started_at));
    expect(Date.parse(done.started_at)).toBeLessThanOrEqual(Date.parse(done.completed_at));
    const tables = await sql<{ t: string }>(db.url, "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
    expect(tables.map((r) => r.t)).toEqual(['audit', 'customers', 'orders']);

    // Re-introspected before completion, so the next analysis sees the new schema.
    const snapshot = await getLatestSnapshot(t.runtime.container.store, await ownerOf(t, conn), conn);
    expect(snapshot?.tables.map((x) => x.name)).toContain('customers');
    expect(snapshot?.tables.map((x) => x.name)).not.toContain('legacy_events');

    const listed = await t.request('GET', `/connections/${conn}/migrations/requests`, { apiKey: alice });
    expect(listed.status).toBe(200);
    expect(listed.body.data[0]).toEqual(done);
  });

  it('shows progress while executing', async () => {
    const migration = 'ALTER TABLE orders ADD COLUMN note text;\nSELECT pg_sleep(1.5);\nALTER TABLE orders DROP COLUMN note;';
    const res = await execute({ approval_token: await issueToken(t, conn, migration), sql: migration, connection_id: conn });
    const running = await waitForStatus(t, alice, res.body.data.request_id, 'executing');
    expect(running.started_at).toEqual(expect.any(String));
    expect(running.completed_at).toBeNull();
    expect(running.result).toBeNull();
    expect(running.progress).toMatch(/^(starting|statement [123] of 3: .+)$/);
    const seen = new Set<string>([running.progress]);
    for (let i = 0; i < 20 && !seen.has('statement 2 of 3: SELECT pg_sleep(1.5)'); i++) {
      seen.add((await t.request('GET', `/migrations/requests/${res.body.data.request_id}`, { apiKey: alice })).body.progress);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toContain('statement 2 of 3: SELECT pg_sleep(1.5)');
    expect((await waitForRequest(t, alice, res.body.data.request_id)).status).toBe('completed');
  });

  it('ends failed with nothing half-applied when a transactional statement fails', async () => {
    const migration =
      'CREATE TABLE customers (id int);\nALTER TABLE orders ADD COLUMN note text;\nALTER TABLE orders ADD CONSTRAINT email_unique UNIQUE (email);';
    const res = await execute({ approval_token: await issueToken(t, conn, migration), sql: migration, connection_id: conn });
    const done = await waitForRequest(t, alice, res.body.data.request_id);
    expect(done.status).toBe('failed');
    expect(done.result).toBeNull();
    expect(done.progress).toBeNull();
    expect(done.completed_at).toEqual(expect.any(String));
    expect(done.error).toMatchObject({ code: '23505', statement_index: 2, rolled_back: true, applied_non_transactional: [], committed_transactional: [] });
    expect(done.error.message).toContain('email_unique');
    expect(await sql(db.url, "SELECT 1 FROM pg_tables WHERE tablename = 'customers'")).toHaveLength(0);
    expect(await sql(db.url, "SELECT 1 FROM information_schema.columns WHERE table_name = 'orders' AND column_name = 'note'")).toHaveLength(0);
  });

  it('reports an INVALID index left by a failed CREATE INDEX CONCURRENTLY and what stayed applied', async () => {
    const migration = 'ALTER TABLE orders ADD COLUMN note text;\nCREATE UNIQUE INDEX CONCURRENTLY orders_email ON orders (email);';
    const res = await execute({ approval_token: await issueToken(t, conn, migration), sql: migration, connection_id: conn });
    const done = await waitForRequest(t, alice, res.body.data.request_id);
    expect(done.error).toMatchObject({
      code: '23505',
      statement_index: 1,
      rolled_back: false,
      applied_non_transactional: [],
      committed_transactional: [0],
      invalid_indexes: ['public.orders_email'],
    });
  });

  it('runs non-transactional statements on their own, in order', async () => {
    const migration = 'ALTER TABLE orders ADD COLUMN note text;\nCREATE INDEX CONCURRENTLY orders_note ON orders (note);\nVACUUM (ANALYZE) orders;';
    const res = await execute({ approval_token: await issueToken(t, conn, migration), sql: migration, connection_id: conn });
    const done = await waitForRequest(t, alice, res.body.data.request_id);
    expect(done.status).toBe('completed');
    expect(done.result.columns_added).toEqual([{ table: 'orders', column: 'note', type: 'text' }]);
    const idx = await sql<{ valid: boolean }>(
      db.url,
      "SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'orders_note'",
    );
    expect(idx).toEqual([{ valid: true }]);
  });

  it('fails with CONNECTION_FAILED, nothing run, when the database cannot be reached', async () => {
    const gone = await createScratchDatabase('mexec_gone');
    const goneConn = (await registerConnection(t, 'alice', gone.url, { name: 'gone' })).id;
    await gone.drop();
    const migration = 'CREATE TABLE x (id int);';
    const res = await execute({ approval_token: await issueToken(t, goneConn, migration), sql: migration, connection_id: goneConn });
    expect(res.status).toBe(202);
    const done = await waitForRequest(t, alice, res.body.data.request_id);
    expect(done).toMatchObject({ status: 'failed', result: null, error: { code: 'CONNECTION_FAILED', statement_index: null, applied_non_transactional: [] } });
    expect(done.error.message).toMatch(/does not exist/);
    expect(done.error.message).not.toMatch(/postgres(ql)?:\/\/|dbops-test/);
  });

  describe('token checks', () => {
    const migration = 'ALTER TABLE orders ADD COLUMN note text;';

    it('answers 401 for a malformed token, a forged one and an expired one', async () => {
      const forged = await issueToken(t, conn, migration, { secret: 'not-the-key' });
      const expired = await issueToken(t, conn, migration);
      for (const token of ['nonsense', forged]) {
        const res = await execute({ approval_token: token, sql: migration, connection_id: conn });
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'TOKEN_INVALID' } });
        expect(res.body.error.message).toMatch(/analyze the migration again/);
      }
      offsetMs = 3600_000 + 1000;
      const late = await execute({ approval_token: expired, sql: migration, connection_id: conn });
      expect(late.status).toBe(401);
      expect(late.body.error.message).toContain('expired');
      // Ten seconds short of expiry: real time also passes between issuing and presenting it.
      offsetMs = 3590_000;
      const stillValid = await execute({ approval_token: expired, sql: migration, connection_id: conn });
      expect(stillValid.status).toBe(202);
      offsetMs = 0;
      await waitForRequest(t, alice, stillValid.body.data.request_id);
    });

    it("answers 401 when another user presents a user's token", async () => {
      const token = await issueToken(t, conn, migration);
      const res = await execute({ approval_token: token, sql: migration, connection_id: conn }, bob);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'TOKEN_INVALID', message: expect.stringContaining('another user') });
    });

    it('answers 400 saying whether sql or connection_id differs', async () => {
      const token = await issueToken(t, conn, migration);
      const sqlDiff = await execute({ approval_token: token, sql: `${migration} `, connection_id: conn });
      expect(sqlDiff.status).toBe(400);
      expect(sqlDiff.body.error).toMatchObject({ code: 'TOKEN_MISMATCH', details: { mismatched_fields: ['sql'] } });
      expect(sqlDiff.body.error.message).toContain('`sql` differs');

      const connDiff = await execute({ approval_token: token, sql: migration, connection_id: otherConn });
      expect(connDiff.status).toBe(400);
      expect(connDiff.body.error).toMatchObject({ code: 'TOKEN_MISMATCH', details: { mismatched_fields: ['connection_id'] } });

      const both = await execute({ approval_token: token, sql: 'SELECT 1', connection_id: otherConn });
      expect(both.body.error.details.mismatched_fields).toEqual(['sql', 'connection_id']);
      // None of these used the token up.
      const ok = await execute({ approval_token: token, sql: migration, connection_id: conn });
      expect(ok.status).toBe(202);
      await waitForRequest(t, alice, ok.body.data.request_id);
    });

    it('answers 422 for a request that does not match the schema', async () => {
      const res = await execute({ approval_token: 'x', sql: migration, connection_id: 'not-a-uuid' });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'connection_id'], type: 'uuid_parsing' });
      const missing = await execute({ sql: migration, connection_id: conn });
      expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'approval_token'], type: 'missing' });
    });

    it('answers 404 for a token of a connection the caller does not have', async () => {
      const token = await issueToken(t, bobConn, migration, {
        userId: (await t.runtime.container.store.query<{ user_id: string }>('SELECT user_id FROM connections WHERE id = $1', [conn])).rows[0]!.user_id,
      });
      const res = await execute({ approval_token: token, sql: migration, connection_id: bobConn });
      expect(res.status).toBe(404);
    });
  });

  it('returns the same request for a replayed token, also under concurrent replays', async () => {
    const migration = "INSERT INTO audit (note) VALUES ('once');";
    const token = await issueToken(t, conn, migration);
    const replies = await Promise.all(Array.from({ length: 8 }, () => execute({ approval_token: token, sql: migration, connection_id: conn })));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(202));
    const ids = new Set(replies.map((r) => r.body.data.request_id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as [string];
    const done = await waitForRequest(t, alice, id);
    const again = await execute({ approval_token: token, sql: migration, connection_id: conn });
    expect(again.body).toEqual({ success: true, data: { request_id: id, status: 'completed' }, error: null });
    expect((await waitForRequest(t, alice, id)).completed_at).toBe(done.completed_at);
    expect(await sql(db.url, 'SELECT note FROM audit')).toEqual([{ note: 'once' }]);
    const rows = await t.runtime.container.store.query('SELECT id FROM migration_requests WHERE id = $1', [id]);
    expect(rows.rows).toHaveLength(1);
  });

  it('accepts exactly one of concurrent executes with different tokens on one connection', async () => {
    const migrations = Array.from({ length: 6 }, (_, i) => `INSERT INTO audit (note) VALUES ('m${i}'); SELECT pg_sleep(0.3);`);
    const tokens = await Promise.all(migrations.map((m) => issueToken(t, conn, m)));
    const replies = await Promise.all(migrations.map((m, i) => execute({ approval_token: tokens[i], sql: m, connection_id: conn })));
    const accepted = replies.filter((r) => r.status === 202);
    const refused = replies.filter((r) => r.status === 409);
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.body).toMatchObject({ success: false, error: { code: 'MIGRATION_IN_PROGRESS' } });
    await waitForRequest(t, alice, accepted[0]!.body.data.request_id);
    expect(await sql(db.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 1 }]);

    // Once it has ended, a refused migration goes through with its (unused) token.
    const i = replies.findIndex((r) => r.status === 409);
    const retry = await execute({ approval_token: tokens[i], sql: migrations[i], connection_id: conn });
    expect(retry.status).toBe(202);
    await waitForRequest(t, alice, retry.body.data.request_id);
  });

  it('runs migrations on different connections at the same time', async () => {
    const m = 'SELECT pg_sleep(0.3);';
    const [a, b] = await Promise.all([
      execute({ approval_token: await issueToken(t, conn, m), sql: m, connection_id: conn }),
      execute({ approval_token: await issueToken(t, otherConn, m), sql: m, connection_id: otherConn }),
    ]);
    expect([a.status, b.status]).toEqual([202, 202]);
    await waitForRequest(t, alice, a.body.data.request_id);
    await waitForRequest(t, alice, b.body.data.request_id);
  });

  it('acknowledges a redelivered message without running the migration again', async () => {
    const { handler } = await import('@dbops/functions/executor/migration-executor');
    const migration = "INSERT INTO audit (note) VALUES ('x');";
    const res = await execute({ approval_token: await issueToken(t, conn, migration), sql: migration, connection_id: conn });
    const id = res.body.data.request_id as string;
    const event = (messageId: string) => ({
      Records: [
        {
          messageId,
          receiptHandle: 'r',
          body: JSON.stringify({ requestId: id }),
          attributes: { ApproximateReceiveCount: '2', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:local:0:q',
          awsRegion: 'local',
        },
      ],
    });
    // Duplicates racing the first delivery, then one after the end.
    const racing = await Promise.all([handler(event('dup-1')), handler(event('dup-2'))]);
    expect(racing).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    const done = await waitForRequest(t, alice, id);
    expect(done.status).toBe('completed');
    expect(await handler(event('dup-3'))).toEqual({ batchItemFailures: [] });
    expect(await sql(db.url, 'SELECT note FROM audit')).toEqual([{ note: 'x' }]);
    expect((await waitForRequest(t, alice, id)).completed_at).toBe(done.completed_at);
    // An unreadable message is acknowledged too (it could never succeed).
    expect(await handler({ Records: [{ ...event('bad').Records[0]!, body: 'not json' }] })).toEqual({ batchItemFailures: [] });
  });

  it("answers 404 for another user's request and connection", async () => {
    const migration = 'SELECT 1;';
    const res = await execute({ approval_token: await issueToken(t, conn, migration), sql: migration, connection_id: conn });
    const id = res.body.data.request_id as string;
    await waitForRequest(t, alice, id);
    const asBob = await t.request('GET', `/migrations/requests/${id}`, { apiKey: bob });
    expect(asBob.status).toBe(404);
    expect(asBob.body.error.code).toBe('NOT_FOUND');
    expect((await t.request('GET', `/migrations/requests/${randomUUID()}`, { apiKey: alice })).status).toBe(404);
    expect((await t.request('GET', `/connections/${conn}/migrations/requests`, { apiKey: bob })).status).toBe(404);
    expect((await t.request('GET', '/migrations/requests/nope', { apiKey: alice })).status).toBe(422);
    const bobs = await t.request('GET', `/connections/${bobConn}/migrations/requests`, { apiKey: bob });
    expect(bobs.body).toEqual({ success: true, data: [], error: null });
  });
});
