import pg from 'pg';
import type { ConnectionTarget } from './connection-target';
import { connectFailure } from './connect-error';
import { pgClientConfig, type PgClientOptions } from './pg-client-config';
import { parseConnectionString } from './connection-string';

/** A connected client to the user's database and whether TLS was used. */
export interface OpenedClient {
  client: pg.Client;
  tls: boolean;
}

/** Whether a connect failed because the server does not offer TLS (sslmode `prefer` then goes plain). */
export const isSslRefusal = (e: unknown): boolean => e instanceof Error && /does not support SSL/i.test(e.message);

/** A connected client, or the driver's error with the half-open client ended. */
export async function tryConnect(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client(config);
  // A server that goes away later must not crash the process through an unhandled 'error'.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/**
 * Opens a client to the user's database following sslmode exactly (for `prefer`: TLS first,
 * then plain when the server refuses TLS) and turns failures into CONNECTION_FAILED saying why.
 */
export async function connectPg(target: ConnectionTarget, options: PgClientOptions = {}): Promise<OpenedClient> {
  const config = pgClientConfig({ ...target, preferPlain: false }, options);
  const timeoutMs = Number(config.connectionTimeoutMillis ?? 10_000);
  const started = Date.now();
  const where = (timedOut: boolean) => {
    const p = parseConnectionString(target.connectionString);
    return { host: p.host, port: p.port, database: p.database, user: p.user, timedOut };
  };
  try {
    try {
      const client = await tryConnect(config);
      return { client, tls: config.ssl !== false };
    } catch (error) {
      if (target.sslmode !== 'prefer' || !isSslRefusal(error)) throw error;
      const left = Math.max(1, timeoutMs - (Date.now() - started));
      return { client: await tryConnect({ ...config, ssl: false, connectionTimeoutMillis: left }), tls: false };
    }
  } catch (error) {
    throw connectFailure(error, where(Date.now() - started >= timeoutMs - 50));
  }
}
