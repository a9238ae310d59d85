import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createDbopsMcpServer } from '@dbops/functions/mcp';
import { loadStdioConfig } from './config';
import { httpCaller } from './http-caller';

// stdout carries the protocol; anything for a person goes to stderr.
let config;
try {
  config = loadStdioConfig(process.argv.slice(2), process.env);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
const server = createDbopsMcpServer(httpCaller(config), { readOnly: config.readOnly });
await server.connect(new StdioServerTransport());
process.stderr.write(`dbops-mcp: serving ${config.baseUrl} over stdio\n`);
