/**
 * Managed databases and the MCP endpoint, sequential latencies on a real PostgreSQL 17:
 *  1. POST /provision and DELETE /provision/{id} over HTTP (each with its own user, so the
 *     3-per-user limit never interferes), p50/p95/max.
 *  2. The same create through the MCP tool `provision_database` over streamable HTTP (SDK client),
 *     and `list_provisioned_databases`, to show what the MCP layer adds.
 *
 *   npx tsx bench/provisioning.ts [--runs 20]
 */
import { startLocalRuntime } from '@dbops/local';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startTargetServer } from '../test/support/target-server';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const runs = Number(values.runs);

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const line = (label: string, xs: number[]) =>
  console.log(
    `${label.padEnd(44)} n=${String(xs.length).padStart(3)}  p50 ${pct(xs, 50).toFixed(1).padStart(7)} ms  p95 ${pct(xs, 95).toFixed(1).padStart(7)} ms  max ${Math.max(
      ...xs,
    )
      .toFixed(1)
      .padStart(7)} ms`,
  );
const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const r = await fn();
  return [r, performance.now() - t0];
};

const server = await startTargetServer();
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
await admin.query('CREATE DATABASE bench_shared');
await admin.end();
const sharedUrl = new URL(server.url);
sharedUrl.pathname = '/bench_shared';
sharedUrl.searchParams.set('sslmode', 'disable');

const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-prov-'));
const runtime = await startLocalRuntime({
  port: 0,
  inMemoryState: true,
  env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent', DBOPS_SHARED_INSTANCE_URL: sharedUrl.toString() },
});
try {
  const call = async (method: string, p: string, jwt: string, body?: unknown) => {
    const res = await fetch(`${runtime.baseUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${jwt}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as { data: { id: string } };
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status}`);
    return json.data;
  };

  const creates: number[] = [];
  const deletes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const jwt = await runtime.issuer.sign(`bench-${i}`);
    const [db, c] = await timed(() => call('POST', '/provision', jwt, { name: `bench ${i}` }));
    creates.push(c);
    const [, d] = await timed(() => call('DELETE', `/provision/${db.id}`, jwt));
    deletes.push(d);
  }

  const keyRes = await fetch(`${runtime.baseUrl}/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await runtime.issuer.sign('bench-mcp')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  const apiKey = ((await keyRes.json()) as { data: { key: string } }).data.key;
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${runtime.baseUrl}/mcp`), { requestInit: { headers: { 'X-API-Key': apiKey } } }));
  const mcpCreates: number[] = [];
  const mcpLists: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [res, c] = await timed(() => client.callTool({ name: 'provision_database', arguments: { name: `mcp ${i}` } }));
    mcpCreates.push(c);
    const id = (JSON.parse((res.content as { text: string }[])[1]!.text) as { id: string }).id;
    mcpLists.push((await timed(() => client.callTool({ name: 'list_provisioned_databases', arguments: {} })))[1]);
    await client.callTool({ name: 'delete_provisioned_database', arguments: { provision_id: id } });
  }
  await client.close();

  console.log(`Managed databases, ${runs} sequential runs each (PostgreSQL 17 embedded, local runtime in this process)`);
  line('POST /provision (HTTP)', creates);
  line('DELETE /provision/{id} (HTTP)', deletes);
  line('MCP provision_database (streamable HTTP)', mcpCreates);
  line('MCP list_provisioned_databases', mcpLists);
} finally {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
  await server.stop();
}
