import type { ConnectionView } from '@dbops/core/connections/connection-view';
import type { TestRuntime } from './test-runtime';

/** `url` with `sslmode=disable` added unless it already names an sslmode (the test server has no TLS). */
export function withSslDisabled(url: string): string {
  const u = new URL(url);
  if (!u.searchParams.has('sslmode')) u.searchParams.set('sslmode', 'disable');
  return u.toString();
}

/**
 * Registers `url` (for example a scratch database's) as a connection of `user` (a user name
 * for the runtime's local issuer) through `POST /api/v1/connections`, and returns the
 * Connection. Throws with the response when registration fails.
 */
export async function registerConnection(
  t: TestRuntime,
  user: string,
  url: string,
  options: { name?: string; dbType?: string } = {},
): Promise<ConnectionView> {
  const res = await t.request<{ data: ConnectionView }>('POST', '/connections', {
    jwt: await t.jwt(user),
    body: { name: options.name ?? 'test db', db_type: options.dbType ?? 'postgresql_local', connection_string: withSslDisabled(url) },
  });
  if (res.status !== 201) throw new Error(`could not register connection: ${res.status} ${res.text}`);
  return res.body.data;
}
