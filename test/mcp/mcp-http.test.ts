import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectMcpHttp, creditsIn, EXPECTED_TOOLS } from '../support/mcp';
import { connectAs, startProvisioningRuntime } from '../support/provisioning';

let env: Awaited<ReturnType<typeof startProvisioningRuntime>>;
let client: Client;
let apiKey: string;

beforeAll(async () => {
  env = await startProvisioningRuntime();
  apiKey = await env.t.apiKey('agent-owner');
  client = await connectMcpHttp(env.t.baseUrl, apiKey);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await env?.close();
});

describe('MCP over streamable HTTP at /api/v1/mcp', () => {
  it('lists every tool', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(EXPECTED_TOOLS);
    expect(tools.find((t) => t.name === 'provision_database')!.inputSchema.properties).toHaveProperty('name');
  });

  it('annotates every tool with its behaviour hints, and describes the two-step migration flow', async () => {
    const { tools } = await client.listTools();
    for (const t of tools) {
      expect(t.annotations, t.name).toEqual({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
        openWorldHint: false,
      });
      expect(t.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('execute_sql')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('delete_provisioned_database')?.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('list_connections')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('analyze_migration')?.description).toMatch(/approval_token[\s\S]*execute_migration/);
    expect(byName.get('execute_migration')?.description).toMatch(/analyze_migration/);
  });

  it('offers only the read-only tools on a read-only connection (?read_only=true), and refuses the others', async () => {
    const readOnly = await connectMcpHttp(env.t.baseUrl, apiKey, '?read_only=true');
    try {
      const { tools } = await readOnly.listTools();
      const names = tools.map((t) => t.name).sort();
      expect(names.length).toBeGreaterThan(0);
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      for (const writer of ['execute_sql', 'execute_migration', 'provision_database', 'delete_provisioned_database']) expect(names).not.toContain(writer);
      expect(names).toEqual(EXPECTED_TOOLS.filter((n) => tools.some((t) => t.name === n)));
      const refused = await readOnly
        .callTool({ name: 'provision_database', arguments: { name: 'nope' } })
        .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
      expect(refused.isError).toBe(true);
      expect((await callTool(client, 'list_provisioned_databases')).json.count).toBe(0);
    } finally {
      await readOnly.close();
    }
  });

  it('provisions, lists, runs SQL as an agent under guardrails, and deletes', async () => {
    const created = await callTool(client, 'provision_database', { name: 'agent db' });
    expect(created.isError).toBe(false);
    expect(created.summary).toContain('agent db');
    expect(created.json).toMatchObject({ name: 'agent db', status: 'active' });
    const db = created.json;

    const tenant = await connectAs(db.connection_string);
    await tenant.query('CREATE TABLE items (id int)');
    await tenant.query('INSERT INTO items VALUES (1), (2)');
    await tenant.end();

    const list = await callTool(client, 'list_provisioned_databases');
    expect(list.json).toMatchObject({ count: 1, limit: 3 });
    expect(list.json.databases[0].id).toBe(db.id);
    expect(JSON.stringify(list.json)).not.toContain('connection_string');

    // Default guardrail is strict: DDL from an agent is refused, a SELECT runs and is billed.
    const ddl = await callTool(client, 'execute_sql', { connection_id: db.connection_id, sql: 'DROP TABLE items' });
    expect(ddl.isError).toBe(true);
    expect(ddl.summary).toContain('GUARDRAIL_VIOLATION');
    const select = await callTool(client, 'execute_sql', { connection_id: db.connection_id, sql: 'SELECT count(*)::int AS n FROM items' });
    expect(select.isError).toBe(false);
    expect(JSON.stringify(select.json)).toContain('"n"');
    const afterMcp = creditsIn(select.summary);
    expect(afterMcp).not.toBeNaN();

    // Billing is the same as over HTTP: one HTTP /execute costs what one tool call costs.
    const http = await env.t.request('POST', '/execute', { apiKey, body: { connection_id: db.connection_id, sql: 'SELECT 1' } });
    expect(http.status).toBe(200);
    const afterHttp = Number(http.headers.get('x-credits-remaining'));
    const again = await callTool(client, 'execute_sql', { connection_id: db.connection_id, sql: 'SELECT 1' });
    const afterAgain = creditsIn(again.summary);
    expect(afterMcp - afterHttp).toBeGreaterThan(0);
    expect(afterHttp - afterAgain).toBeCloseTo(afterMcp - afterHttp, 6);
    // Free tools report no credits.
    expect(list.summary).not.toContain('Credits remaining');

    const deleted = await callTool(client, 'delete_provisioned_database', { provision_id: db.id });
    expect(deleted.isError).toBe(false);
    expect(deleted.json).toMatchObject({ id: db.id, status: 'deleted' });
    expect((await callTool(client, 'list_provisioned_databases')).json.count).toBe(0);
  }, 90_000);

  it("answers errors as tool errors: validation, another user's id", async () => {
    const invalid = await callTool(client, 'provision_database', { name: '' });
    expect(invalid.isError).toBe(true);
    expect(invalid.summary).toContain('body.name');

    const other = await connectMcpHttp(env.t.baseUrl, await env.t.apiKey('someone-else'));
    try {
      const theirs = await callTool(other, 'provision_database', { name: 'theirs' });
      const foreign = await callTool(client, 'delete_provisioned_database', { provision_id: theirs.json.id });
      expect(foreign.isError).toBe(true);
      expect(foreign.summary).toContain('NOT_FOUND');
      expect((await callTool(other, 'list_provisioned_databases')).json.count).toBe(1);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('needs an API key, and answers 405 to GET and DELETE (stateless)', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const anonymous = await fetch(`${env.t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(init),
    });
    expect(anonymous.status).toBe(401);
    expect((await env.t.request('GET', '/mcp', { apiKey })).status).toBe(405);
    expect((await env.t.request('DELETE', '/mcp', { apiKey })).status).toBe(405);
  });

  it('wires the other capabilities: introspect, analyze -> execute -> status, optimize, generate', async () => {
    const db = (await callTool(client, 'provision_database', { name: 'capabilities' })).json;
    const tenant = await connectAs(db.connection_string);
    await tenant.query('CREATE TABLE items (id int PRIMARY KEY, label text)');
    await tenant.query("INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 50) g");
    await tenant.end();
    const connection_id = db.connection_id;

    const snap = await callTool(client, 'introspect_schema', { connection_id });
    expect(snap.isError, snap.summary).toBe(false);
    expect(JSON.stringify(snap.json)).toContain('items');

    // Qualified: the analysis sandbox clones the schema by name but does not apply the role's
    // search_path, so an unqualified name fails there (reported to the analysis owner).
    const sql = `ALTER TABLE ${db.schema_name}.items ADD COLUMN note text`;
    const analysis = await callTool(client, 'analyze_migration', { connection_id, sql });
    expect(analysis.isError, analysis.summary).toBe(false);
    const token = analysis.json.approval_token ?? analysis.json.data?.approval_token;
    expect(typeof token, JSON.stringify(analysis.json.sandbox_result)).toBe('string');
    const started = await callTool(client, 'execute_migration', { connection_id, sql, approval_token: token });
    expect(started.isError, started.summary).toBe(false);
    let status = started.json;
    for (let i = 0; i < 120 && status.status !== 'completed' && status.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = (await callTool(client, 'get_migration_status', { request_id: started.json.request_id })).json;
    }
    expect(status.status).toBe('completed');

    const optimized = await callTool(client, 'optimize_query', { connection_id, sql: 'SELECT * FROM items WHERE label = $$item 7$$' });
    expect(optimized.isError, optimized.summary).toBe(false);
    const generated = await callTool(client, 'generate_sql', { connection_id, query: 'how many items are there' });
    expect(generated.summary).toMatch(/Generated SQL|Failed/);
    expect(generated.isError, generated.summary).toBe(false);
  }, 180_000);
});
