import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { defineHandler } from '../http/define-handler';
import { bodyBytes } from '../http/event';
import type { HttpResult } from '../http/responses';
import { createDbopsMcpServer } from '../mcp/create-server';
import { inProcessCaller } from '../mcp/in-process-caller';

const methodNotAllowed = (): HttpResult => ({
  statusCode: 405,
  headers: { 'content-type': 'application/json; charset=utf-8', allow: 'POST' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send JSON-RPC with POST.' },
    id: null,
  }),
});

/**
 * /api/v1/mcp: the MCP streamable HTTP transport, stateless (no session id, JSON responses
 * instead of SSE) so that each request is one Lambda invocation. A fresh server per request
 * runs its tool calls through the route handlers in-process, as the caller (API key or JWT).
 */
export const handler = defineHandler('mcp', {
  async handle({ event, auth }) {
    if (event.requestContext.http.method !== 'POST') return methodNotAllowed();
    const readOnly = event.queryStringParameters?.read_only === 'true';
    const server = createDbopsMcpServer(inProcessCaller(auth, event), { readOnly });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const headers = new Headers();
      for (const [k, v] of Object.entries(event.headers ?? {})) if (v !== undefined) headers.set(k, v);
      const request = new Request(`https://${event.requestContext.domainName ?? 'localhost'}${event.rawPath}`, {
        method: 'POST',
        headers,
        body: new Uint8Array(bodyBytes(event)),
      });
      const response = await transport.handleRequest(request);
      const out: Record<string, string> = {};
      response.headers.forEach((v, k) => {
        out[k] = v;
      });
      const text = await response.text();
      return { statusCode: response.status, headers: out, ...(text ? { body: text } : {}) };
    } finally {
      await server.close().catch(() => undefined);
    }
  },
});
