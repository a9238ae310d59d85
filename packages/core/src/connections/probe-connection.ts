import type { ServiceSettings } from '../config';
import { connectPg } from './connect-pg';
import { connectFailure } from './connect-error';
import { connectTimeoutMs } from './connection-settings';
import type { ParsedConnectionString } from './connection-string';
import { assertHostAllowed, hostPolicy } from './host-policy';

/**
 * Checks that a connection string may be used and that the database answers: the host policy
 * first (no packet is sent to a rejected host), then a connection with a short timeout and
 * `SELECT 1`. Returns whether `prefer` had to fall back to plain text.
 */
export async function probeConnection(settings: ServiceSettings, connectionString: string, parsed: ParsedConnectionString): Promise<{ preferPlain: boolean }> {
  await assertHostAllowed(hostPolicy(settings), parsed.host);
  const { client, tls } = await connectPg(
    {
      id: '',
      userId: '',
      name: '',
      dbType: '',
      connectionString,
      sslmode: parsed.sslmode,
      host: parsed.host,
      port: parsed.port,
      database: parsed.database,
      isActive: true,
    },
    // A client-side query timeout: poolers such as PgBouncer refuse a statement_timeout startup parameter.
    { connectTimeoutMs: connectTimeoutMs(settings), queryTimeoutMs: connectTimeoutMs(settings), applicationName: 'dbops-probe' },
  );
  try {
    await client.query('SELECT 1');
  } catch (error) {
    throw connectFailure(error, { host: parsed.host, port: parsed.port, database: parsed.database, user: parsed.user, timedOut: false });
  } finally {
    await client.end().catch(() => undefined);
  }
  return { preferPlain: parsed.sslmode === 'prefer' && !tls };
}
