import { createHash } from 'node:crypto';
import pg from 'pg';
import { connectFailure } from '../connections/connect-error';
import { connectPg } from '../connections/connect-pg';
import { parseConnectionString } from '../connections/connection-string';
import type { ConnectionTarget } from '../connections/connection-target';
import { pgClientConfig } from '../connections/pg-client-config';
import { CatalogVerdictCache } from './catalog-verdict-cache';
import { inTransactionBlock, SESSION_STARTUP_OPTIONS } from './execute-sql';

/** A session on the user's database for one request. */
export interface Session {
  client: pg.Client;
  /** The session's settings as opened (pooled sessions); undefined for a plain session. */
  defaults: { statementTimeoutMs: number } | undefined;
  /** The agent guardrail's kept catalog verdicts for this target (pooled sessions only). */
  catalogVerdicts: CatalogVerdictCache | undefined;
  /**
   * Gives the session back. With `reusable`, an open transaction is rolled back and `DISCARD ALL`
   * clears everything a request may have left (settings, temporary tables, prepared statements,
   * LISTEN, advisory locks) before the next request may use it; otherwise it is closed.
   * `reset: false` skips `DISCARD ALL` for requests that cannot leave session state behind.
   */
  release(reusable: boolean, reset?: boolean): Promise<void>;
}

/** Sessions kept per connection (`DBOPS_EXECUTE_POOL_SIZE`, default 10); idle ones close after 30 s. */
export interface SessionPoolSettings {
  maxPerConnection: number;
  idleMs: number;
  applicationName: string;
  /** statement_timeout every pooled session starts with (and returns to on `DISCARD ALL`). */
  defaultStatementTimeoutMs: number;
}

interface Entry {
  fingerprint: string;
  pool: pg.Pool;
  /** Kept per exact target, like the pool: a re-pointed connection starts with none. */
  verdicts: CatalogVerdictCache;
}

const pools = new Map<string, Entry>();

/** A pool is for one exact target: re-pointing or re-keying a connection gets a new one. */
const fingerprintOf = (t: ConnectionTarget): string =>
  createHash('sha256')
    .update(`${t.userId}\0${t.connectionString}\0${t.sslmode}\0${t.preferPlain ? 1 : 0}`)
    .digest('hex');

function poolFor(target: ConnectionTarget, settings: SessionPoolSettings): Entry {
  const fingerprint = fingerprintOf(target);
  const existing = pools.get(target.id);
  if (existing?.fingerprint === fingerprint) return existing;
  if (existing) void existing.pool.end().catch(() => undefined);
  const pool = new pg.Pool({
    ...pgClientConfig(target, { applicationName: settings.applicationName, statementTimeoutMs: settings.defaultStatementTimeoutMs }),
    options: SESSION_STARTUP_OPTIONS,
    max: settings.maxPerConnection,
    idleTimeoutMillis: settings.idleMs,
    allowExitOnIdle: true,
  });
  // An idle session the server ends (restart, DROP DATABASE ... FORCE) must not crash the process.
  pool.on('error', () => undefined);
  // Once per session (not per request, or listeners pile up): a dying session must not throw.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const entry = { fingerprint, pool, verdicts: new CatalogVerdictCache() };
  pools.set(target.id, entry);
  return entry;
}

/**
 * A session from the connection's pool: a new backend per request would cost a fork and a
 * password exchange on the user's server, several milliseconds more than the query itself.
 * When the pool cannot connect, the failure is explained as CONNECTION_FAILED (for sslmode
 * `prefer` after a plain retry, through {@link connectPg}, on an unpooled session).
 */
export async function acquireSession(target: ConnectionTarget, settings: SessionPoolSettings): Promise<Session> {
  const { pool, verdicts } = poolFor(target, settings);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    if (target.sslmode === 'prefer') {
      const { client: plain } = await connectPg(target, { applicationName: settings.applicationName });
      return { client: plain, defaults: undefined, catalogVerdicts: undefined, release: async () => void (await plain.end().catch(() => undefined)) };
    }
    const p = parseConnectionString(target.connectionString);
    throw connectFailure(error, { host: p.host, port: p.port, database: p.database, user: p.user, timedOut: false });
  }
  return {
    client,
    defaults: { statementTimeoutMs: settings.defaultStatementTimeoutMs },
    catalogVerdicts: verdicts,
    async release(reusable, reset = true) {
      if (!reusable) {
        client.release(true);
        return;
      }
      try {
        if (inTransactionBlock(client)) await client.query('ROLLBACK');
        if (reset) await client.query('DISCARD ALL');
        client.release();
      } catch {
        client.release(true);
      }
    },
  };
}
