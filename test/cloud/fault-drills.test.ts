// Fault drills on the cloud shape (`npm run start:cloud`): function processes killed mid-request,
// the executor killed mid-migration, messages delivered twice, a message that exhausts its receive
// count. Nothing may be lost, nothing may run twice, and the request records say what happened.
// The queue is SQS semantics (packages/local/src/cloud/local-sqs.ts); ChangeMessageVisibility
// (as an operator or SQS's own timeout would) stands in for waiting out the visibility timeout.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudShapeUnavailable, localFunctions, stopStateServer } from '../support/cloud-state';
import { registerConnection } from '../support/connections';
import { issueToken, waitForRequest } from '../support/migration-execution';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const unavailable = cloudShapeUnavailable();
if (!unavailable) await localFunctions();

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe.skipIf(unavailable)('fault drills on the cloud shape', () => {
  let t: TestRuntime;
  let target: Awaited<ReturnType<typeof createScratchDatabase>>;
  let apiKey: string;
  let connectionId: string;

  beforeAll(async () => {
    target = await createScratchDatabase('drills');
    await sql(target.url, 'CREATE TABLE audit (id serial PRIMARY KEY, note text)');
    t = await startTestRuntime({
      shape: 'cloud',
      env: { DBOPS_MIGRATION_LEASE_SECONDS: '1' },
    });
    apiKey = await t.apiKey('drill-user');
    connectionId = (await registerConnection(t, 'drill-user', target.url)).id;
  });
  afterAll(async () => {
    await t?.close();
    await target?.drop();
    await stopStateServer();
  });

  const queue = () => t.cloud!.queues.migrations;
  const eventsOf = (messageId: string) =>
    t.cloud!.sqs.events.filter((e) => e.messageId === messageId).map((e) => `${e.type}${'receiveCount' in e ? e.receiveCount : ''}`);
  const submit = async (migration: string): Promise<string> => {
    const res = await t.request('POST', '/migrations/execute', {
      apiKey,
      body: { approval_token: await issueToken(t, connectionId, migration), sql: migration, connection_id: connectionId },
    });
    expect(res.status, res.text).toBe(202);
    return res.body.data.request_id as string;
  };
  const messageFor = (requestId: string) =>
    queue()
      .messages()
      .find((m) => JSON.parse(m.body).requestId === requestId);
  const sentFor = (requestId: string): string => {
    const sent = t.cloud!.sqs.events.filter((e) => e.type === 'sent' && e.queue === queue().name).map((e) => e.messageId);
    const id = sent.find((m) => messageFor(requestId)?.messageId === m);
    if (!id) throw new Error(`no message in flight for ${requestId}`);
    return id;
  };

  it('a function process killed mid-request: that request fails with 500, the next one gets a fresh instance', async () => {
    const before = t.cloud!.lambda.history.filter((s) => s.function === 'sql-execute').length;
    const slow = t.request('POST', '/execute', { apiKey, body: { connection_id: connectionId, sql: 'SELECT pg_sleep(10)' } });
    await until('sql-execute busy', () => t.cloud!.lambda.killBusy('sql-execute') === 1);
    const answer = await slow;
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR' } });
    const next = await t.request('POST', '/execute', { apiKey, body: { connection_id: connectionId, sql: 'SELECT 1 AS one' } });
    expect(next.status, next.text).toBe(200);
    // The killed instance and a fresh one; the killed one is gone.
    expect(t.cloud!.lambda.history.filter((s) => s.function === 'sql-execute').length).toBe(before + 2);
    expect(t.cloud!.lambda.live('sql-execute')).toHaveLength(1);
  });

  it('a message delivered twice more after its migration completed changes nothing', { timeout: 120_000 }, async () => {
    const requestId = await submit('CREATE TABLE once_only (id int);');
    const done = await waitForRequest(t, apiKey, requestId, 60_000);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const body = JSON.stringify({ requestId });
    const dup1 = queue().send(body);
    const dup2 = queue().send(body);
    await until('duplicates handled', () => eventsOf(dup1.messageId).includes('deleted1') && eventsOf(dup2.messageId).includes('deleted1'));
    // A second run would have failed on CREATE TABLE and rewritten the record.
    expect(await waitForRequest(t, apiKey, requestId)).toEqual(done);
    expect(await sql(target.url, "SELECT count(*)::int AS n FROM pg_class WHERE relname = 'once_only'")).toEqual([{ n: 1 }]);
  });

  it(
    'the executor killed mid-migration: the message stays unacknowledged, its redelivery finds the request lost and runs nothing again',
    { timeout: 120_000 },
    async () => {
      const requestId = await submit("INSERT INTO audit (note) VALUES ('never committed');\nSELECT pg_sleep(2.5);");
      await until('statement 2 running', async () => {
        const r = (await t.request('GET', `/migrations/requests/${requestId}`, { apiKey })).body;
        if (r.status === 'completed' || r.status === 'failed') throw new Error(`the migration ended before the kill: ${JSON.stringify(r)}`);
        return r.status === 'executing' && r.progress?.startsWith('statement 2 of 2') === true;
      });
      const messageId = sentFor(requestId);
      expect(t.cloud!.lambda.killBusy('executor')).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      // The work did not commit, so the message must still be there: an acknowledgement on receipt
      // (or on a crash) would have lost it.
      expect(eventsOf(messageId)).toEqual(['sent', 'received1']);
      expect(messageFor(requestId)).toMatchObject({ receiveCount: 1 });

      // Past the lease (1 s), the visibility timeout runs out: the message comes back.
      await new Promise((r) => setTimeout(r, 1500));
      queue().changeVisibility(messageId, 0);
      await until('redelivery acknowledged', () => eventsOf(messageId).includes('deleted2'));
      expect(eventsOf(messageId)).toEqual(['sent', 'received1', 'received2', 'deleted2']);
      const record = await waitForRequest(t, apiKey, requestId);
      expect(record).toMatchObject({ status: 'failed', error: { code: 'EXECUTOR_LOST', statement_index: 1, rolled_back: true, committed_transactional: [] } });
      expect(await sql(target.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 0 }]);
    },
  );

  it("the Lambda's remaining time bounds each statement, as the real context does", { timeout: 120_000 }, async () => {
    // The executor keeps 20 s of its remaining time to record the outcome (run-migration.ts): with
    // a 23 s timeout a statement gets at most 3 s, not the 300 s statement timeout it would get
    // if the context's remaining time were not the invocation's.
    const executor = t.cloud!.lambda.configuration('executor')!;
    t.cloud!.lambda.updateFunctionConfiguration('executor', { timeoutSeconds: 23 });
    let requestId: string;
    try {
      requestId = await submit('SELECT pg_sleep(8);');
      await until('picked up', async () => (await t.request('GET', `/migrations/requests/${requestId}`, { apiKey })).body.status !== 'pending');
    } finally {
      t.cloud!.lambda.updateFunctionConfiguration('executor', { timeoutSeconds: executor.sizing.timeoutSeconds });
    }
    const record = await waitForRequest(t, apiKey, requestId, 60_000);
    expect(record.status, JSON.stringify(record)).toBe('failed');
    expect(JSON.stringify(record.error)).toMatch(/timeout|time/i);
  });

  it(
    'a message that exhausts its receive count goes to the dead-letter queue, the request stays pending, and a redrive runs it once',
    { timeout: 120_000 },
    async () => {
      const state = new pg.Client({ connectionString: t.runtime.container.settings.databaseUrl });
      await state.connect();
      try {
        t.cloud!.mappings.migrations.pause();
        const requestId = await submit('CREATE TABLE after_redrive (id int);');
        const messageId = sentFor(requestId);
        // The executor's state store fails on every delivery: it reports the message in batchItemFailures.
        await state.query('ALTER TABLE migration_requests RENAME TO migration_requests_away');
        t.cloud!.mappings.migrations.resume();
        for (let n = 1; n <= 3; n++) {
          await until(`failure ${n} reported`, () => eventsOf(messageId).includes(`received${n}`) && t.cloud!.mappings.migrations.inFlight === 0);
          queue().changeVisibility(messageId, 0);
        }
        await until('dead-lettered', () => t.cloud!.queues.migrationsDeadLetter.messages().length === 1);
        expect(eventsOf(messageId)).toEqual(['sent', 'received1', 'received2', 'received3', 'dead-lettered3']);
        expect(t.cloud!.queues.migrationsDeadLetter.messages()[0]).toMatchObject({ messageId, body: JSON.stringify({ requestId }) });

        await state.query('ALTER TABLE migration_requests_away RENAME TO migration_requests');
        // Nothing ran, and the record says it is still waiting.
        expect((await t.request('GET', `/migrations/requests/${requestId}`, { apiKey })).body.status).toBe('pending');
        expect(await sql(target.url, "SELECT count(*)::int AS n FROM pg_class WHERE relname = 'after_redrive'")).toEqual([{ n: 0 }]);

        // The operator redrives the dead-letter queue: the migration runs, once.
        expect(t.cloud!.queues.migrationsDeadLetter.redriveTo(queue())).toBe(1);
        expect(await waitForRequest(t, apiKey, requestId, 60_000)).toMatchObject({ status: 'completed' });
        expect(await sql(target.url, "SELECT count(*)::int AS n FROM pg_class WHERE relname = 'after_redrive'")).toEqual([{ n: 1 }]);
      } finally {
        await state.query('ALTER TABLE IF EXISTS migration_requests_away RENAME TO migration_requests').catch(() => undefined);
        await state.end();
      }
    },
  );
});
