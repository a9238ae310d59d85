import { AppError } from '../errors/app-error';

/** Why the service could not reach a database; sent as `error.details.reason`. */
export type ConnectFailureReason =
  'auth_failed' | 'database_not_found' | 'host_not_found' | 'host_unreachable' | 'ssl_not_supported' | 'ssl_failed' | 'timeout' | 'server_error';

interface ErrorLike {
  message?: string;
  code?: string;
}

/**
 * Turns a `pg`/socket failure into CONNECTION_FAILED that says why, in words of our own:
 * driver messages are never passed through, so nothing of the connection string can leak.
 */
export function connectFailure(error: unknown, where: { host: string; port: number; database: string; user: string; timedOut: boolean }): AppError {
  const e = (error ?? {}) as ErrorLike;
  const msg = e.message ?? '';
  const at = `${where.host}:${where.port}`;
  const fail = (reason: ConnectFailureReason, message: string): AppError => new AppError('CONNECTION_FAILED', message, { details: { reason } });

  if (where.timedOut || msg === 'timeout expired' || /timeout/i.test(msg) || e.code === 'ETIMEDOUT') {
    return fail('timeout', `Timed out connecting to ${at}: the server did not answer in time (check the host, port and firewall rules).`);
  }
  switch (e.code) {
    case '28P01':
    case '28000':
      return fail('auth_failed', `Authentication failed for user "${where.user}": the server rejected the user name or password.`);
    case '3D000':
      return fail('database_not_found', `Database "${where.database}" does not exist on ${at}.`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return fail('host_not_found', `Host "${where.host}" could not be resolved.`);
    case 'ECONNREFUSED':
      return fail('host_unreachable', `Host unreachable: ${at} refused the connection (is PostgreSQL listening there?).`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ECONNRESET':
    case 'EPIPE':
      return fail('host_unreachable', `Host unreachable: no route to ${at} or the connection was reset.`);
    default:
      break;
  }
  if (/does not support SSL/i.test(msg)) {
    return fail(
      'ssl_not_supported',
      `SSL is required (sslmode=require) but the server at ${at} does not offer it; use sslmode=prefer or sslmode=disable if that is intended.`,
    );
  }
  if (/SSL|TLS|certificate|handshake/i.test(msg) || e.code?.startsWith('ERR_SSL') || e.code?.startsWith('ERR_TLS')) {
    return fail('ssl_failed', `The TLS handshake with ${at} failed.`);
  }
  if (/pg_hba\.conf|no encryption/i.test(msg) || e.code === '28000') {
    return fail('auth_failed', `The server at ${at} refused the connection for user "${where.user}" (pg_hba.conf rules).`);
  }
  if (/Connection terminated/i.test(msg)) {
    return fail('host_unreachable', `The server at ${at} closed the connection before it was ready.`);
  }
  return fail('server_error', `Could not connect to ${at}${e.code ? ` (PostgreSQL error ${e.code})` : ''}.`);
}
