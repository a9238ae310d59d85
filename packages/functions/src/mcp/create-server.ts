import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RouteCaller } from './route-call';
import { registerDbopsTools } from './tools';

/** Name and version the server reports to MCP clients. */
export const MCP_SERVER_INFO = { name: 'dbops', version: '0.1.0' } as const;

/** A dbops MCP server whose tools run through `caller` (in-process or over HTTP). */
export function createDbopsMcpServer(caller: RouteCaller): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions:
      'dbops manages PostgreSQL databases: managed databases (provision_database), schema introspection, migration analysis and approved execution, query optimization, text-to-SQL and guarded SQL execution. Connection ids come from list_connections or provision_database.',
  });
  registerDbopsTools(server, caller);
  return server;
}
