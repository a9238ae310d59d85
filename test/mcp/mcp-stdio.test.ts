import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, creditsIn, EXPECTED_TOOLS } from '../support/mcp';
import { startProvisioningRuntime } from '../support/provisioning';

const BIN = path.resolve('packages/mcp/bin/dbops-mcp.js');
let env: Awaited<ReturnType<typeof startProvisioningRuntime>>;
let client: Client;

beforeAll(async () => {
  env = await startProvisioningRuntime();
  const apiKey = await env.t.apiKey('desktop-user');
  client = new Client({ name: 'dbops-test', version: '0.0.0' });
  // The key travels in the environment, as a desktop client's config would pass it.
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--base-url', env.t.baseUrl],
      env: { ...process.env, DBOPS_API_KEY: apiKey } as Record<string, string>,
      stderr: 'ignore',
    }),
  );
}, 90_000);
afterAll(async () => {
  await client?.close();
  await env?.close();
});

describe('dbops-mcp over stdio', () => {
  it('offers the same tools and runs them through the HTTP API with the API key', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(EXPECTED_TOOLS);

    const created = await callTool(client, 'provision_database', { name: 'desktop db' });
    expect(created.isError).toBe(false);
    expect(created.json.connection_string).toMatch(/^postgresql:\/\//);
    const list = await callTool(client, 'list_provisioned_databases');
    expect(list.json.count).toBe(1);
    // Seen by the service as the key's user.
    const viaHttp = await env.t.request('GET', '/provision', { jwt: await env.t.jwt('desktop-user') });
    expect(viaHttp.body.data.databases[0].id).toBe(created.json.id);

    const select = await callTool(client, 'execute_sql', { connection_id: created.json.connection_id, sql: 'SELECT 1 AS one' });
    expect(select.isError).toBe(false);
    expect(creditsIn(select.summary)).not.toBeNaN();
    const blocked = await callTool(client, 'execute_sql', { connection_id: created.json.connection_id, sql: 'CREATE TABLE t (id int)' });
    expect(blocked.isError).toBe(true);
    expect(blocked.summary).toContain('GUARDRAIL_VIOLATION');

    const deleted = await callTool(client, 'delete_provisioned_database', { provision_id: created.json.id });
    expect(deleted.json.status).toBe('deleted');
  }, 90_000);

  it('offers only the read-only tools with --read-only', async () => {
    const apiKey = await env.t.apiKey('desktop-reader');
    const reader = new Client({ name: 'dbops-test', version: '0.0.0' });
    await reader.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--base-url', env.t.baseUrl, '--read-only'],
        env: { ...process.env, DBOPS_API_KEY: apiKey } as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await reader.listTools();
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      expect(tools.map((t) => t.name)).not.toContain('execute_sql');
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('refuses to start without an API key', () => {
    const env2 = { ...process.env };
    delete env2.DBOPS_API_KEY;
    const run = spawnSync(process.execPath, [BIN], { env: env2, encoding: 'utf8', input: '', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('API key');
  }, 60_000);
});
