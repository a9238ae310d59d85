import { credentialHeaders, getCredential } from './credential';

/** Base of the API: same origin locally, the stage's API URL in a cloud build. */
export const API_BASE = `${(import.meta.env.VITE_DBOPS_API_URL ?? '').replace(/\/$/, '')}/api/v1`;

/** Any non-2xx answer, with the service's code and a message fit to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;

/** Reads every error shape the service answers (envelope, validation, 402, gateway deny). */
export function toApiError(status: number, body: unknown): ApiError {
  const b = (body ?? {}) as Json;
  const err = b.error as Json | null | undefined;
  if (err && typeof err === 'object' && typeof err.message === 'string') {
    return new ApiError(status, String(err.code ?? 'ERROR'), err.message, (err.details as Json | undefined) ?? null);
  }
  if (Array.isArray(b.detail)) {
    const parts = (b.detail as Json[]).map((d) => `${Array.isArray(d.loc) ? (d.loc as unknown[]).slice(1).join('.') : ''}: ${String(d.msg ?? '')}`);
    return new ApiError(status, 'VALIDATION_ERROR', `Invalid input: ${parts.join('; ')}`);
  }
  if (typeof b.detail === 'string') return new ApiError(status, status === 402 ? 'PAYMENT_REQUIRED' : 'ERROR', b.detail);
  if (typeof b.message === 'string') return new ApiError(status, status === 403 ? 'FORBIDDEN' : 'ERROR', b.message);
  return new ApiError(status, 'ERROR', `The service answered HTTP ${status}`);
}

/** Calls the API with the signed-in credential; `path` is relative to /api/v1. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const credential = getCredential();
  const headers: Record<string, string> = credential ? credentialHeaders(credential) : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached.');
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!res.ok) throw toApiError(res.status, parsed);
  return parsed as T;
}

/** The `data` of an enveloped answer. */
export async function apiData<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await api<{ data: T }>(method, path, body)).data;
}
