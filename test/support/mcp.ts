import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** An MCP client (the SDK's own) connected to the runtime's `/api/v1/mcp` with an API key. */
export async function connectMcpHttp(baseUrl: string, apiKey: string, search = ''): Promise<Client> {
  const client = new Client({ name: 'dbops-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp${search}`), { requestInit: { headers: { 'X-API-Key': apiKey } } });
  await client.connect(transport);
  return client;
}

export interface ParsedToolResult {
  isError: boolean;
  summary: string;
  json: any;
}

/** Calls a tool and splits its result into the summary line and the JSON payload. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ParsedToolResult> {
  const res = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[] };
  return { isError: res.isError === true, summary: res.content[0]!.text, json: JSON.parse(res.content[1]!.text) };
}

/** The remaining credits a billable tool reported in its summary. */
export const creditsIn = (summary: string): number => Number(/Credits remaining: (-?[0-9]+(?:\.[0-9]+)?)/.exec(summary)?.[1] ?? NaN);

/** Every tool the dbops MCP server offers. */
export const EXPECTED_TOOLS = [
  'analyze_migration',
  'delete_provisioned_database',
  'execute_migration',
  'execute_sql',
  'generate_sql',
  'get_migration_status',
  'introspect_schema',
  'list_connections',
  'list_provisioned_databases',
  'optimize_query',
  'provision_database',
];
