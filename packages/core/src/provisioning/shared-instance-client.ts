import type pg from 'pg';
import { connectPg } from '../connections/connect-pg';
import { parseConnectionString } from '../connections/connection-string';

/**
 * An admin session on the shared instance, opened with the same sslmode rules as any user
 * connection (fields one by one, never `PG*` variables). The caller ends it.
 */
export async function connectSharedInstance(adminUrl: string): Promise<pg.Client> {
  const p = parseConnectionString(adminUrl);
  const { client } = await connectPg(
    {
      id: 'shared-instance',
      userId: 'service',
      name: 'shared instance',
      dbType: 'postgresql',
      connectionString: adminUrl,
      sslmode: p.sslmode,
      host: p.host,
      port: p.port,
      database: p.database,
      isActive: true,
    },
    { applicationName: 'dbops-provisioning', statementTimeoutMs: 30_000 },
  );
  return client;
}

/**
 * The tenant's own connection string: the admin URL's host, port and database with the tenant
 * role and password. Only `sslmode` is carried over (default `prefer`, which psql and the
 * service both understand), so no admin option leaks into a tenant's string.
 */
export function tenantConnectionString(adminUrl: string, roleName: string, password: string): string {
  const admin = new URL(adminUrl);
  const url = new URL(`postgresql://${admin.host}${admin.pathname}`);
  url.username = roleName;
  url.password = password;
  url.searchParams.set('sslmode', admin.searchParams.get('sslmode') ?? 'prefer');
  return url.toString();
}
