import { quoteIdent as ident } from '../pg/quote';
import type pg from 'pg';
import { scramSha256Verifier } from './scram-verifier';

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/**
 * Serialises provisioning DDL on one shared instance: concurrent GRANT/REVOKE on the same
 * database row otherwise fail with "tuple concurrently updated".
 */
const DDL_LOCK_KEY = 7_010_001;

/** Upper bound on one tenant's sessions, so one tenant cannot use up the instance's slots. */
export const TENANT_CONNECTION_LIMIT = 20;

export interface TenantSpec {
  schemaName: string;
  roleName: string;
  password: string;
}

/**
 * Creates the tenant in ONE transaction on the shared instance (role, schema, grants and the
 * role's search_path are all transactional in PostgreSQL), so a failure leaves nothing behind.
 *
 * Isolation: PUBLIC loses every right on the database and on `public`; the tenant gets CONNECT
 * on the database and USAGE+CREATE on its own schema, which the admin owns (so the tenant can
 * neither drop it nor grant it away). The password travels as a SCRAM verifier only.
 */
export async function createTenant(admin: pg.Client, spec: TenantSpec): Promise<void> {
  const role = ident(spec.roleName);
  const schema = ident(spec.schemaName);
  await admin.query('BEGIN');
  try {
    await admin.query('SELECT pg_advisory_xact_lock($1)', [DDL_LOCK_KEY]);
    const db = ident((await admin.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db);
    await admin.query(`REVOKE ALL ON DATABASE ${db} FROM PUBLIC`);
    await admin.query('REVOKE ALL ON SCHEMA public FROM PUBLIC');
    await admin.query(
      `CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS
       CONNECTION LIMIT ${TENANT_CONNECTION_LIMIT} PASSWORD ${literal(scramSha256Verifier(spec.password))}`,
    );
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`GRANT CONNECT ON DATABASE ${db} TO ${role}`);
    await admin.query(`GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${role}`);
    await admin.query(`ALTER ROLE ${role} SET search_path = ${schema}`);
    await admin.query('COMMIT');
  } catch (error) {
    await admin.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Drops the tenant: no new logins, its sessions terminated, then the schema with everything in
 * it, whatever the role still owns or was granted in this database, and the role. Every step
 * tolerates a missing object, so it also cleans up after a half-finished create and can be
 * retried after a failure.
 */
export async function dropTenant(admin: pg.Client, names: { schemaName: string; roleName: string }): Promise<void> {
  const role = ident(names.roleName);
  const exists = async (): Promise<boolean> => (await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [names.roleName])).rowCount! > 0;
  if (await exists()) {
    await admin.query(`ALTER ROLE ${role} NOLOGIN`);
    await terminateSessions(admin, names.roleName);
  }
  await admin.query('BEGIN');
  try {
    await admin.query('SELECT pg_advisory_xact_lock($1)', [DDL_LOCK_KEY]);
    await admin.query(`DROP SCHEMA IF EXISTS ${ident(names.schemaName)} CASCADE`);
    if (await exists()) {
      await admin.query(`DROP OWNED BY ${role} CASCADE`);
      await admin.query(`DROP ROLE ${role}`);
    }
    await admin.query('COMMIT');
  } catch (error) {
    await admin.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Terminates the role's sessions and waits (up to 5 s) until they are gone. */
async function terminateSessions(admin: pg.Client, roleName: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const res = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1 AND pid <> pg_backend_pid()', [roleName]);
    if (res.rowCount === 0 || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
