import type { AuthContext } from '../http/auth-context';
import type { ApiEvent, LambdaContext } from '../http/event';
import { handlerLoaders } from '../runtime/handler-registry';
import { resolveRoute, type RouteCaller } from './route-call';

/**
 * Runs tool calls through the handler modules in this process, with a synthetic API Gateway
 * v2 event carrying the MCP caller's identity. The handlers' own pipeline (rate limit, zod
 * validation, billing, error mapping) runs unchanged, so a tool call costs and validates
 * exactly like the HTTP request it stands for.
 */
export function inProcessCaller(auth: AuthContext, parent: ApiEvent): RouteCaller {
  let n = 0;
  return async (call) => {
    const { method, path, routeKey } = resolveRoute(call);
    const event = {
      version: '2.0',
      routeKey,
      rawPath: path,
      rawQueryString: new URLSearchParams(call.query ?? {}).toString(),
      headers: { 'content-type': 'application/json', 'user-agent': 'dbops-mcp' },
      queryStringParameters: call.query,
      pathParameters: call.params,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      isBase64Encoded: false,
      requestContext: {
        ...parent.requestContext,
        routeKey,
        requestId: `${parent.requestContext.requestId}-tool-${++n}`,
        http: { ...parent.requestContext.http, method, path },
        // Marked so that an agent reaching a route through MCP gets MCP's defaults (http/key-policy.ts).
        authorizer: { lambda: { ...auth, via: 'mcp' } },
      },
    } as unknown as ApiEvent;
    const { handler } = await handlerLoaders()[call.handler]();
    const result = await handler(event, {} as LambdaContext);
    let body: unknown = result.body;
    try {
      body = result.body ? JSON.parse(result.body) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const credits = Object.entries(result.headers ?? {}).find(([k]) => k.toLowerCase() === 'x-credits-remaining')?.[1];
    return { status: result.statusCode, body, ...(credits === undefined ? {} : { creditsRemaining: String(credits) }) };
  };
}
