import { resolveRoute, type RouteCaller } from '@dbops/functions/mcp';
import type { StdioConfig } from './config';

/**
 * Runs tool calls as HTTP requests to the dbops API with the caller's API key, so the
 * service applies its own validation, rate limit and billing; nothing is decided locally.
 */
export function httpCaller(config: StdioConfig): RouteCaller {
  return async (call) => {
    const { method, path } = resolveRoute(call);
    const qs = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
    const headers: Record<string, string> = { 'x-api-key': config.apiKey, 'user-agent': 'dbops-mcp' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${config.baseUrl}${path}${qs}`, {
      method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const credits = res.headers.get('x-credits-remaining');
    return { status: res.status, body, ...(credits === null ? {} : { creditsRemaining: credits }) };
  };
}
