import type { ResponseOf } from '@dbops/functions/routes';
import { CliError } from '../cli-error';

// Typed from the route table's response schemas (packages/functions/src/response-schemas.ts),
// the same zod schemas the OpenAPI document emits and the service's tests check every answer
// against. The import is type-only: nothing of the service, and not zod, is bundled into the CLI.
export type AnalysisReport = ResponseOf<'migrations-analyze'>;
export type ExecuteAccepted = ResponseOf<'migrations-execute'>;
export type MigrationRequest = ResponseOf<'migrations-request-get'>;
export type Connection = ResponseOf<'connections-list'>[number];

export interface ServiceConfig {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}

interface Envelope<T> {
  success: boolean;
  data: T;
  error: { code: string; message: string } | null;
}

/** Normalises `--base-url` values: a trailing `/` or `/api/v1` is accepted. */
export const apiBase = (url: string): string => `${url.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;

export class ServiceClient {
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly cfg: ServiceConfig) {
    this.base = apiBase(cfg.baseUrl);
    this.doFetch = cfg.fetch ?? fetch;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
    let res: Response;
    try {
      res = await this.doFetch(`${this.base}${path}`, {
        method,
        headers: { 'x-api-key': this.cfg.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'user-agent': 'dbops-cli' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(300_000),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new CliError(`cannot reach the dbops service at ${this.base} (${cause})`, 'connection');
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new CliError(`the service answered ${res.status} with a body that is not JSON`, 'service');
    }
    if (!res.ok) {
      const err = (json as { error?: { code?: string; message?: string }; detail?: unknown } | null) ?? {};
      const what = err.error?.code
        ? `${err.error.code}: ${err.error.message ?? ''}`
        : typeof err.detail === 'string'
          ? err.detail
          : err.detail
            ? JSON.stringify(err.detail)
            : text.slice(0, 200);
      throw new CliError(`${method} ${path} failed with ${res.status} ${what}`.trim(), 'service');
    }
    return { status: res.status, json: json as T };
  }

  private async enveloped<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.call<Envelope<T>>(method, path, body)).json.data;
  }

  analyze(connectionId: string, sql: string): Promise<AnalysisReport> {
    return this.call<AnalysisReport>('POST', `/connections/${encodeURIComponent(connectionId)}/migrations/analyze`, { sql }).then((r) => r.json);
  }

  execute(connectionId: string, sql: string, approvalToken: string): Promise<ExecuteAccepted> {
    return this.enveloped<ExecuteAccepted>('POST', '/migrations/execute', { approval_token: approvalToken, sql, connection_id: connectionId });
  }

  request(requestId: string): Promise<MigrationRequest> {
    return this.call<MigrationRequest>('GET', `/migrations/requests/${encodeURIComponent(requestId)}`).then((r) => r.json);
  }

  connections(): Promise<Connection[]> {
    return this.enveloped<Connection[]>('GET', '/connections');
  }
}
