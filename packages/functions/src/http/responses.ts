import type { ErrorBody } from '@dbops/core/errors';

/** What a handler returns: API Gateway HTTP API payload 2.0 structured response. */
export interface HttpResult {
  statusCode: number;
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** A JSON response with the body as given (the spec's bare forms). */
export const bare = (body: unknown, statusCode = 200, headers: Record<string, string> = {}): HttpResult => ({
  statusCode,
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify(body),
});

/** The success envelope `{success: true, data, error: null}`. */
export const ok = (data: unknown, statusCode = 200, headers: Record<string, string> = {}): HttpResult =>
  bare({ success: true, data, error: null }, statusCode, headers);

/** The failure envelope `{success: false, data: null, error: {code, message}}`. */
export const failure = (statusCode: number, error: ErrorBody, headers: Record<string, string> = {}): HttpResult =>
  bare({ success: false, data: null, error }, statusCode, headers);

/** 204 without a body. */
export const noContent = (): HttpResult => ({ statusCode: 204 });
