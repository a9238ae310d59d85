import { type HandlerName, routeOf } from '../routes';

/** One call of an API route on behalf of a tool: the handler plus its inputs as the HTTP API takes them. */
export interface RouteCall {
  handler: HandlerName;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** What a route answered: status, parsed JSON body and the credits header when billed. */
export interface RouteAnswer {
  status: number;
  body: unknown;
  creditsRemaining?: string;
}

/**
 * Runs a {@link RouteCall}: in-process through the handler module (the `/api/v1/mcp` Lambda)
 * or over HTTP with an API key (the stdio server). Either way the route's own validation,
 * rate limit and billing apply, exactly as for a direct HTTP request.
 */
export type RouteCaller = (call: RouteCall) => Promise<RouteAnswer>;

/** Method and concrete path (`/api/v1/...`, parameters substituted) of a call. */
export function resolveRoute(call: RouteCall): { method: string; path: string; routeKey: string } {
  const route = routeOf(call.handler);
  const path = route.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(call.params?.[name] ?? ''));
  return { method: route.method, path, routeKey: `${route.method} ${route.path}` };
}
