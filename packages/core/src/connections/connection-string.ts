import type { SslMode } from './connection-target';

/** The parts of a `postgresql://` connection string the service uses. */
export interface ParsedConnectionString {
  user: string;
  password: string;
  host: string;
  port: number;
  database: string;
  sslmode: SslMode;
}

/** A connection string the service cannot use; the message never quotes the string. */
export class ConnectionStringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionStringError';
  }
}

const SSL_MODES: readonly SslMode[] = ['require', 'prefer', 'disable'];
export const DEFAULT_SSLMODE: SslMode = 'require';

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new ConnectionStringError('connection string has invalid percent-encoding');
  }
};

/**
 * Parses `postgresql://user:password@host:port/database?sslmode=...` (or `postgres://`).
 * Port defaults to 5432, database to the user name (as libpq does), sslmode to `require`.
 * Other query parameters are ignored.
 */
export function parseConnectionString(raw: string): ParsedConnectionString {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== 'postgresql' && scheme !== 'postgres') {
    throw new ConnectionStringError('connection string must start with postgresql:// or postgres://');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConnectionStringError('connection string is not a valid URL');
  }
  const host = decode(url.hostname).replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new ConnectionStringError('connection string has no host');
  if (host.includes(',') || host.startsWith('/')) {
    throw new ConnectionStringError('connection string must name exactly one network host (no host lists or socket paths)');
  }
  const port = url.port === '' ? 5432 : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConnectionStringError('connection string has an invalid port');
  const user = decode(url.username);
  if (!user) throw new ConnectionStringError('connection string has no user name');
  const password = decode(url.password);
  const path = decode(url.pathname.replace(/^\//, ''));
  if (path.includes('/')) throw new ConnectionStringError('connection string has an invalid database name');
  const database = path || user;
  const sslParam = url.searchParams.get('sslmode');
  const sslmode = (sslParam ?? DEFAULT_SSLMODE) as SslMode;
  if (!SSL_MODES.includes(sslmode)) {
    throw new ConnectionStringError(`sslmode must be one of ${SSL_MODES.join(', ')}`);
  }
  return { user, password, host, port, database, sslmode };
}

/**
 * The string with its password replaced by `***`, for validation messages. Masks from the
 * first `:` of the user info to the last `@` of the string, so an unescaped `@` or `/` in the
 * password cannot leave part of it visible (it may mask a little more than the password).
 */
export function redactConnectionString(raw: string): string {
  const start = raw.indexOf('://');
  if (start < 0) return raw.includes('@') ? '***' : raw;
  const colon = raw.indexOf(':', start + 3);
  const at = raw.lastIndexOf('@');
  if (at < 0 || colon < 0 || colon > at) return raw;
  return `${raw.slice(0, colon + 1)}***${raw.slice(at)}`;
}
