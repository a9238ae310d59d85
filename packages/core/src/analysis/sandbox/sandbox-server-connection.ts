import type pg from 'pg';
import { isSslRefusal, tryConnect } from '../../connections/connect-pg';
import { parseConnectionString } from '../../connections/connection-string';

/** Shown in the sandbox server's `pg_stat_activity.application_name`. */
export const SANDBOX_APPLICATION_NAME = 'dbops-sandbox';

/** Why a connection to the sandbox server failed, without host, user, database or password. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'connection timed out',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  '28P01': 'authentication failed',
  '28000': 'authentication failed',
  '3D000': 'database does not exist',
  '42501': 'permission denied',
  '53300': 'too many connections',
  '57P03': 'server is starting up or shutting down',
};

/**
 * An error about the sandbox server that is safe to show: the reason and the error code, never
 * what the driver said (it may name the host, the user or the database of the secret URL).
 */
export function sandboxServerError(action: string, e: unknown): Error {
  const code = (e as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? REASONS[code] : undefined;
  const timedOut = e instanceof Error && /timeout/i.test(e.message);
  const reason = known ?? (timedOut ? 'connection timed out' : typeof code === 'string' ? `error ${code}` : 'connection failed');
  return new Error(`sandbox server: ${action} failed (${reason}${known && typeof code === 'string' ? `, ${code}` : ''})`);
}

/** For `prefer`: the last connection found that the server does not offer TLS. */
let plainOnly = false;

/**
 * A client connected to `database` (default: the URL's own) on the sandbox server, as the URL's
 * role or, with `login`, as another role (a run's own: same host, port and TLS). The config is
 * given field by field, so `PG*` variables of this process cannot redirect it. `sslmode` as in
 * libpq's simple forms: `require` (TLS, certificate not verified), `disable`, or `prefer`, the
 * default when the URL has none: TLS when the server offers it. Errors never quote the URL.
 */
export async function connectSandboxServer(
  url: string,
  options: { database?: string; connectTimeoutMs?: number; statementTimeoutMs?: number; login?: { user: string; password: string } } = {},
): Promise<pg.Client> {
  const p = parseConnectionString(url);
  const sslmode = new URL(url).searchParams.get('sslmode') ?? 'prefer';
  const config = (tls: boolean): pg.ClientConfig => ({
    host: p.host,
    port: p.port,
    user: options.login?.user ?? p.user,
    password: options.login?.password ?? p.password,
    database: options.database ?? p.database,
    ssl: tls ? { rejectUnauthorized: false } : false,
    application_name: SANDBOX_APPLICATION_NAME,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }),
  });
  // tryConnect ignores later 'error' events: DROP DATABASE ... WITH (FORCE) ends the run's
  // session from the other connection, which must not reach the process as an unhandled error.
  const attempt = (tls: boolean): Promise<pg.Client> => tryConnect(config(tls));
  try {
    if (sslmode === 'disable' || (sslmode === 'prefer' && plainOnly)) return await attempt(false);
    try {
      return await attempt(true);
    } catch (e) {
      if (sslmode !== 'prefer' || !isSslRefusal(e)) throw e;
      const client = await attempt(false);
      plainOnly = true;
      return client;
    }
  } catch (e) {
    throw sandboxServerError('connecting', e);
  }
}
