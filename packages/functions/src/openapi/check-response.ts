import { z } from 'zod';
import type { HttpResult } from '../http/responses';
import type { RouteDefinition } from '../routes';

/**
 * Why a handler's success answer does not match its route's response schema (routes.ts), or null
 * when it does or the route declares none. Failures (non-2xx) and empty bodies are not checked:
 * the schemas describe successes. The local runtime runs this on every answer in tests, so a
 * handler that drifts from what the OpenAPI document and the CLI's client promise fails them.
 */
export function responseMismatch(route: RouteDefinition, result: HttpResult): string | null {
  if (!route.response || result.statusCode < 200 || result.statusCode > 299 || !result.body) return null;
  let body: unknown;
  try {
    body = JSON.parse(result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body);
  } catch {
    return `${route.method} ${route.path} answered ${result.statusCode} with a body that is not JSON`;
  }
  let value = body;
  if (route.form === 'envelope') {
    const envelope = body as { success?: unknown; data?: unknown; error?: unknown } | null;
    if (envelope?.success !== true || envelope.error !== null) return `${route.method} ${route.path} answered ${result.statusCode} without a success envelope`;
    value = envelope.data;
  }
  const parsed = route.response.safeParse(value);
  return parsed.success ? null : `${route.method} ${route.path} answered ${result.statusCode} off its response schema:\n${z.prettifyError(parsed.error)}`;
}
