import type { IncomingMessage } from 'node:http';
import { S3Error } from './s3-error';

/** One CORS rule of a bucket, as S3's PutBucketCors takes it. */
export interface CorsRule {
  allowOrigins: readonly string[];
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds?: number;
}

/** S3's AllowedOrigin/AllowedHeader patterns: case-insensitive, at most one `*` matching anything. */
const matches = (pattern: string, value: string): boolean => {
  const p = pattern.toLowerCase();
  const v = value.toLowerCase();
  const star = p.indexOf('*');
  if (star < 0) return p === v;
  return v.length >= p.length - 1 && v.startsWith(p.slice(0, star)) && v.endsWith(p.slice(star + 1));
};

const VARY = 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method';

const ruleFor = (rules: readonly CorsRule[], origin: string, method: string, headers: readonly string[]): CorsRule | undefined =>
  rules.find(
    (r) =>
      r.allowOrigins.some((o) => matches(o, origin)) &&
      r.allowMethods.some((m) => m.toUpperCase() === method.toUpperCase()) &&
      headers.every((h) => r.allowHeaders.some((a) => matches(a, h))),
  );

const allowOrigin = (rule: CorsRule, origin: string): string => (rule.allowOrigins.includes('*') ? '*' : origin);

/**
 * The CORS headers S3 adds to an answer (errors included) for a request from a browser: those of
 * the first rule allowing the request's origin and method, or none, and the browser then hides
 * the answer from the page.
 */
export function corsHeaders(rules: readonly CorsRule[], req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin) return {};
  const rule = ruleFor(rules, origin, req.method ?? 'GET', []);
  if (!rule) return {};
  return {
    'access-control-allow-origin': allowOrigin(rule, origin),
    'access-control-allow-methods': rule.allowMethods.join(', '),
    ...(rule.exposeHeaders.length > 0 ? { 'access-control-expose-headers': rule.exposeHeaders.join(', ') } : {}),
    ...(rule.maxAgeSeconds !== undefined ? { 'access-control-max-age': String(rule.maxAgeSeconds) } : {}),
    vary: VARY,
  };
}

/**
 * S3's answer to a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`): the
 * rule's headers when one allows the origin, the method and every requested header, otherwise
 * 403 as S3 refuses it.
 */
export function preflight(rules: readonly CorsRule[], req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  const method = req.headers['access-control-request-method'];
  if (!origin || !method) throw new S3Error(400, 'BadRequest', 'A preflight needs the Origin and Access-Control-Request-Method headers.');
  const requested = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const rule = ruleFor(rules, origin, method, requested);
  if (!rule)
    throw new S3Error(
      403,
      'AccessForbidden',
      'CORSResponse: no CORS rule of the bucket allows this origin, Access-Control-Request-Method and Access-Control-Request-Headers.',
      { Method: method, ResourceType: 'OBJECT' },
    );
  return {
    'access-control-allow-origin': allowOrigin(rule, origin),
    'access-control-allow-methods': rule.allowMethods.join(', '),
    ...(requested.length > 0 ? { 'access-control-allow-headers': requested.join(', ') } : {}),
    ...(rule.exposeHeaders.length > 0 ? { 'access-control-expose-headers': rule.exposeHeaders.join(', ') } : {}),
    ...(rule.maxAgeSeconds !== undefined ? { 'access-control-max-age': String(rule.maxAgeSeconds) } : {}),
    vary: VARY,
  };
}
