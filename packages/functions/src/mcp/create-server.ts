import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RouteCaller } from './route-call';
import { registerDbopsTools, type ToolOptions } from './tools';

/** Name and version the server reports to MCP clients. */
export const MCP_SERVER_INFO = { name: 'dbops', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'dbops manages PostgreSQL databases: managed databases (provision_database), schema introspection, migration analysis and approved execution, query optimization, text-to-SQL and guarded SQL execution. Connection ids come from list_connections or provision_database. Schema changes take two steps: analyze_migration returns an approval_token when the migration is safe to run; execute_migration runs exactly that sql with that token; get_migration_status follows it.';

const READ_ONLY_NOTE = ' This connection is read-only: only tools that leave the database unchanged are offered.';

/** A dbops MCP server whose tools run through `caller` (in-process or over HTTP). */
export function createDbopsMcpServer(caller: RouteCaller, options: ToolOptions = {}): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS + (options.readOnly ? READ_ONLY_NOTE : '') });
  registerDbopsTools(server, caller, options);
  return server;
}
