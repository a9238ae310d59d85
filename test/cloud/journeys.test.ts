// One end-to-end journey per feature, run on both shapes of the service: `npm start` (handlers in
// this process, PGlite, in-process queues) and `npm run start:cloud` (the built Lambda bundles in
// processes of their own, PostgreSQL with pgvector through the RDS store, SQS-semantics queues,
// the real authorizer bundles). The same steps and the same expectations on each; one runtime per
// shape for the whole file, because a cloud-shape runtime pays a cold start per function. Why this
// file rather than every journey file twice: docs/deploy.md ("The deployed shape on one machine").
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { billingEnv, type FakeStripe, noBillingEnv, sessionEvent, signPayload, startFakeStripe } from '../support/billing';
import { cloudShapeUnavailable, localFunctions, stopStateServer } from '../support/cloud-state';
import { registerConnection } from '../support/connections';
import { openBatch, sendToSlot, type UploadSlot, uploadThroughSlots, waitForBatch } from '../support/documents';
import { connectAs } from '../support/provisioning';
import { callTool, connectMcpHttp, EXPECTED_TOOLS } from '../support/mcp';
import { waitForRequest } from '../support/migration-execution';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { type RuntimeShape, startTestRuntime, type TestRuntime } from '../support/test-runtime';

const unavailable = cloudShapeUnavailable();
const shapes: RuntimeShape[] = unavailable ? ['local'] : ['local', 'cloud'];
if (unavailable) it.skip(`cloud shape not available here: ${unavailable}`, () => undefined);
// Bundling (once per source state, cached) happens at collection, outside any hook's timeout.
else await localFunctions();
// Test workers are killed rather than exited: the file's state server is stopped here.
afterAll(() => stopStateServer());

describe.each(shapes)('journeys on the %s shape', (shape) => {
  let t: TestRuntime;
  let fake: FakeStripe;
  let target: Awaited<ReturnType<typeof createScratchDatabase>>;
  let shared: Awaited<ReturnType<typeof createScratchDatabase>>;
  let jwt: string;
  let apiKey: string;
  let connectionId: string;
  let consoleDir: string;

  beforeAll(async () => {
    fake = await startFakeStripe();
    target = await createScratchDatabase('journey');
    await sql(target.url, "CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL); INSERT INTO items VALUES (1, 'bolt'), (2, 'nut')");
    shared = await createScratchDatabase('jshared');
    consoleDir = await mkdtemp(path.join(tmpdir(), 'dbops-journey-console-'));
    await writeFile(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    t = await startTestRuntime({
      shape,
      env: { ...noBillingEnv, ...billingEnv(fake), DBOPS_SHARED_INSTANCE_URL: `${shared.url}?sslmode=disable` },
      runtime: { consoleDir },
    });
    jwt = await t.jwt('journey-user');
    apiKey = await t.apiKey('journey-user');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await target?.drop();
    await shared?.drop();
    if (consoleDir) await rm(consoleDir, { recursive: true, force: true });
  });

  it('serves the health check from the shape it claims', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject(shape === 'cloud' ? { store: 'pg', mode: 'cloud' } : { mode: 'local' });
  });

  it('registers a connection and introspects it', async () => {
    connectionId = (await registerConnection(t, 'journey-user', target.url)).id;
    const res = await t.request('POST', `/connections/${connectionId}/introspect`, { apiKey });
    expect(res.status, res.text).toBe(200);
    expect(JSON.stringify(res.body.data)).toContain('items');
    expect(Number(res.headers.get('x-credits-remaining'))).toBeLessThan(10);
  });

  // The sandbox is the heaviest step of the suite: generous on a shared two-core machine.
  it('analyzes a migration, executes it with the approval token and polls it to completed', { timeout: 240_000 }, async () => {
    const migration = 'ALTER TABLE items ADD COLUMN note text;';
    const analysis = await t.request('POST', `/connections/${connectionId}/migrations/analyze`, { apiKey, body: { sql: migration } });
    expect(analysis.status, analysis.text).toBe(200);
    expect(analysis.body.sandbox_result).toMatchObject({ passed: true, migration_applied: true });
    const accepted = await t.request('POST', '/migrations/execute', {
      apiKey,
      body: { approval_token: analysis.body.approval_token, sql: migration, connection_id: connectionId },
    });
    expect(accepted.status, accepted.text).toBe(202);
    const record = await waitForRequest(t, apiKey, accepted.body.data.request_id, 120_000);
    expect(record).toMatchObject({ status: 'completed', error: null });
    expect(await sql(target.url, "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'items' AND column_name = 'note'")).toEqual([
      { n: 1 },
    ]);
    if (t.cloud) {
      // Through the queue: one message, received once, deleted after the executor answered.
      const events = t.cloud.sqs.events.filter((e) => e.queue === t.cloud!.queues.migrations.name).map((e) => e.type);
      expect(events).toEqual(['sent', 'received', 'deleted']);
    }
  });

  it('runs SQL with guardrails', async () => {
    const ok = await t.request('POST', '/execute', { apiKey, body: { connection_id: connectionId, sql: 'SELECT name FROM items ORDER BY id' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.rows).toEqual([['bolt'], ['nut']]);
    const blocked = await t.request('POST', '/execute', {
      apiKey,
      body: { connection_id: connectionId, sql: 'DROP TABLE items', caller: 'agent', guardrail: 'strict' },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('GUARDRAIL_VIOLATION');
  });

  it('uploads a document and finds it through the context query (pgvector in the cloud shape)', async () => {
    const form = new FormData();
    form.append('files', new Blob(['Refunds for cancelled orders are approved by the warehouse lead.'], { type: 'text/plain' }), 'refunds.txt');
    const up = await t.request('POST', `/connections/${connectionId}/documents/upload`, { apiKey, body: form });
    expect(up.status, up.text).toBe(200);
    const ctx = await t.request('POST', `/connections/${connectionId}/context/query`, { apiKey, body: { query: 'who approves refunds', max_chunks: 3 } });
    expect(ctx.status, ctx.text).toBe(200);
    expect(JSON.stringify(ctx.body.data)).toContain('warehouse lead');
  });

  it('uploads documents through upload slots, ingests the batch from the queue and finds it (S3 presigned POST in the cloud shape)', async () => {
    const text = 'Damaged parcels go back to the Leeds depot with the night courier.';
    const confirmed = await uploadThroughSlots(t, { apiKey }, connectionId, [{ name: 'returns.md', content: `# Returns\n\n${text}\n` }]);
    expect(confirmed.status, confirmed.text).toBe(202);
    const batch = await waitForBatch(t, { apiKey }, connectionId, confirmed.body.data.batch_id);
    expect(batch).toMatchObject({ status: 'completed', error: null });
    const ctx = await t.request('POST', `/connections/${connectionId}/context/query`, {
      apiKey,
      body: { query: 'where do damaged parcels go', max_chunks: 3 },
    });
    expect(JSON.stringify(ctx.body.data)).toContain('night courier');
    if (t.cloud) {
      // Through the bucket and the document queue; ingestion deleted the batch's objects. The
      // queue deletes its message once the handler has returned, which can be just after the
      // batch reads as completed: waited for, within a deadline.
      const cloud = t.cloud;
      await vi.waitFor(
        async () => {
          const events = cloud.sqs.events.filter((e) => e.queue === cloud.queues.documents.name).map((e) => e.type);
          expect(events).toEqual(['sent', 'received', 'deleted']);
          expect(await cloud.s3.store.list(cloud.uploadBucket)).toEqual([]);
        },
        { timeout: 5000, interval: 50 },
      );
    }
  });

  it("lets the console's page send files to the slots' origin (CSP connect-src), as the deployed console to its bucket", async () => {
    const opened = await openBatch(t, { apiKey }, connectionId, [{ name: 'csp.txt', content: 'x' }]);
    expect(opened.status, opened.text).toBe(201);
    const slotOrigin = new URL((opened.body.data.slots[0] as UploadSlot).url).origin;
    const page = await fetch(`${t.runtime.origin}/`);
    const connect = /connect-src ([^;]*)/.exec(page.headers.get('content-security-policy') ?? '')![1]!.split(' ');
    // Local slots are on the page's own origin; cloud slots on the local S3's.
    expect(connect).toContain(slotOrigin === t.runtime.origin ? "'self'" : slotOrigin);
  });

  it('refuses a file that is not the one its slot was made for, and keeps nothing', async () => {
    const content = '# Holidays\n\nThe warehouse closes on the first Monday of August.\n';
    const opened = await openBatch(t, { apiKey }, connectionId, [{ name: 'holidays.md', content }]);
    expect(opened.status, opened.text).toBe(201);
    const slot = opened.body.data.slots[0] as UploadSlot;
    const larger = await sendToSlot(slot, `${content}and more`);
    expect(larger.status).toBeGreaterThanOrEqual(400);
    expect(larger.status).toBeLessThan(500);
    if (t.cloud) {
      expect(larger.text).toContain('<Code>EntityTooLarge</Code>');
      const policy = JSON.parse(Buffer.from(slot.fields.Policy!, 'base64').toString('utf8'));
      const refusals: { fields: Record<string, string>; code: string; status: number }[] = [
        // Another key than the one signed for.
        { fields: { key: `${slot.fields.key}-other` }, code: 'AccessDenied', status: 403 },
        // A policy rewritten to allow any size: the signature no longer matches it.
        {
          fields: {
            Policy: Buffer.from(
              JSON.stringify({
                ...policy,
                conditions: policy.conditions.map((c: unknown) => (Array.isArray(c) && c[0] === 'content-length-range' ? [c[0], 0, 1e9] : c)),
              }),
            ).toString('base64'),
          },
          code: 'SignatureDoesNotMatch',
          status: 403,
        },
        { fields: { 'X-Amz-Signature': '0'.repeat(64) }, code: 'SignatureDoesNotMatch', status: 403 },
        // A field the policy does not name.
        { fields: { acl: 'public-read' }, code: 'AccessDenied', status: 403 },
      ];
      for (const r of refusals) {
        const res = await sendToSlot(slot, content, { fields: r.fields });
        expect([res.status, res.text], JSON.stringify(r.fields).slice(0, 80)).toEqual([r.status, expect.stringContaining(`<Code>${r.code}</Code>`)]);
      }
      expect(await t.cloud.s3.store.list(t.cloud.uploadBucket)).toEqual([]);
    }
    // The untampered slot still takes the declared file.
    const sent = await sendToSlot(slot, content);
    expect(sent.status).toBeLessThan(300);
  });

  it('credits a purchase from a signed billing webhook', async () => {
    const checkout = await t.request('POST', '/billing/checkout', { jwt, body: { amount_cents: 2500 } });
    expect(checkout.status, checkout.text).toBe(200);
    const userId = fake.requests.at(-1)!.form['metadata[user_id]']!;
    const before = Number((await t.request('GET', '/billing/balance', { jwt })).body.data.balance);
    const payload = JSON.stringify(sessionEvent({ sessionId: checkout.body.data.session_id, userId, amountCents: 2500 }));
    const res = await t.request('POST', '/billing/webhook', {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload) },
    });
    expect(res.status, res.text).toBe(200);
    expect(Number((await t.request('GET', '/billing/balance', { jwt })).body.data.balance)).toBeCloseTo(before + 25, 4);
    const forged = await t.request('POST', '/billing/webhook', {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect(forged.status).toBe(400);
  });

  it('creates, lists and drops a managed database', async () => {
    const created = await t.request('POST', '/provision', { apiKey, body: { name: 'journey db' } });
    expect(created.status, created.text).toBe(201);
    const client = await connectAs(created.body.data.connection_string);
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await client.end();
    const list = await t.request('GET', '/provision', { apiKey });
    expect(list.body.data.databases.map((d: { id: string }) => d.id)).toContain(created.body.data.id);
    const dropped = await t.request('DELETE', `/provision/${created.body.data.id}`, { apiKey });
    expect(dropped.status, dropped.text).toBe(200);
  });

  it('serves MCP tools over streamable HTTP', async () => {
    let client: Client | undefined;
    try {
      client = await connectMcpHttp(t.baseUrl, apiKey);
      expect((await client.listTools()).tools.map((x) => x.name).sort()).toEqual(EXPECTED_TOOLS);
      const listed = await callTool(client, 'list_connections');
      expect(listed.isError).toBe(false);
      expect(JSON.stringify(listed.json)).toContain(connectionId);
    } finally {
      await client?.close();
    }
  });

  it('refuses a revoked API key on its very next request (authorizer not cached)', async () => {
    const key = await t.apiKey('journey-user', 'short-lived');
    expect((await t.request('GET', '/billing/balance', { apiKey: key })).status).toBe(200);
    const keys = await t.request('GET', '/api-keys', { jwt });
    const id = keys.body.data.find((k: { name: string }) => k.name === 'short-lived').id;
    expect((await t.request('DELETE', `/api-keys/${id}`, { jwt })).status).toBe(200);
    expect((await t.request('GET', '/billing/balance', { apiKey: key })).status).toBe(403);
  });
});
