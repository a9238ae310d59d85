import type pg from 'pg';
import type { ConnectionTarget } from './connection-target';
import { parseConnectionString } from './connection-string';

/** Options of {@link pgClientConfig}. */
export interface PgClientOptions {
  /** `statement_timeout` for every statement of the session, in milliseconds. */
  statementTimeoutMs?: number;
  /** Shown in `pg_stat_activity.application_name`; default "dbops". */
  applicationName?: string;
  /** How long to wait for the server to accept the connection; default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Client-side limit per query (`pg`'s `query_timeout`). Unlike `statementTimeoutMs`, which is
   * a startup parameter, it also works through transaction poolers such as PgBouncer.
   */
  queryTimeoutMs?: number;
}

/**
 * TLS per the spec's sslmode table: `require` encrypts without verifying the certificate,
 * `disable` is plain, `prefer` tries TLS first. A `pg` config holds one choice, so for
 * `prefer` it uses what the last probe of the server found ({@link ConnectionTarget.preferPlain});
 * {@link connectPg} also falls back at connect time.
 */
export function sslOption(target: Pick<ConnectionTarget, 'sslmode' | 'preferPlain'>, plain = false): pg.ClientConfig['ssl'] {
  if (target.sslmode === 'disable' || plain) return false;
  if (target.sslmode === 'prefer' && target.preferPlain) return false;
  return { rejectUnauthorized: false };
}

/**
 * A `pg` client config for the user's database. Fields are given one by one (never the URL)
 * so that `PG*` environment variables of this process and query parameters of the string
 * cannot change where or how it connects.
 */
export function pgClientConfig(target: ConnectionTarget, options: PgClientOptions = {}): pg.ClientConfig {
  const parsed = parseConnectionString(target.connectionString);
  return {
    host: parsed.host,
    port: parsed.port,
    user: parsed.user,
    password: parsed.password,
    database: parsed.database,
    ssl: sslOption(target),
    application_name: options.applicationName ?? 'dbops',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }),
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs }),
  };
}
