import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { quoteIdent, quoteLiteral } from '../../../pg/quote';
import { CLONE_OWNER } from './embedded-server';

/** Names of run roles and run databases: a sweep recognises what a run left. */
export const RUN_ROLE_PREFIX = 'dbops_run_';

/**
 * What PostgreSQL bounds per run role (docs/migration-analysis.md, "Isolation model").
 * `temp_file_limit` needs a superuser to change, so the migration cannot lift it; `work_mem`,
 * `maintenance_work_mem` and `statement_timeout` are defaults the migration may SET otherwise
 * in its own session (the memory watch and the run's deadline bound those).
 */
export interface RunRoleLimits {
  /** Sessions of the role at once: the run's own, and a few for what the migration opens (dblink). */
  connectionLimit: number;
  workMemMb: number;
  maintenanceWorkMemMb: number;
  tempFileLimitMb: number;
  statementTimeoutMs: number;
}

export const DEFAULT_RUN_ROLE_LIMITS: RunRoleLimits = {
  connectionLimit: 3,
  workMemMb: 16,
  maintenanceWorkMemMb: 64,
  tempFileLimitMb: 512,
  statementTimeoutMs: 30_000,
};

/** A run's own identity on the embedded server: a role made for it and a database it owns. */
export interface RunIdentity {
  role: string;
  password: string;
  database: string;
}

/** A session as the server's superuser on `database` (the maintenance database when omitted). */
export type AdminConnect = (database?: string) => Promise<pg.Client>;

async function onAdmin(connect: AdminConnect, database: string | undefined, sql: string): Promise<void> {
  const c = await connect(database);
  try {
    await c.query(sql);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Makes a run's role and its database copied from `template`: a login role without superuser,
 * CREATEDB, CREATEROLE, replication or RLS bypass, member of nothing (it inherits only the
 * implicit `pg_database_owner` of its own database, which owns `public` on 15+), with a connection limit and
 * the limits above; the database owned by it, CONNECT and TEMPORARY revoked from PUBLIC (no
 * other run's role can connect to it), and every object of the clone handed from
 * `dbops_clone_owner` to it. So what the migration changes about its own role (settings, its
 * password, grants) dies with the run, and `pg_stat_activity` shows it no other run's query.
 */
export async function createRunIdentity(connect: AdminConnect, template: string, limits: RunRoleLimits = DEFAULT_RUN_ROLE_LIMITS): Promise<RunIdentity> {
  const suffix = randomBytes(8).toString('hex');
  const role = `${RUN_ROLE_PREFIX}${suffix}`;
  const database = `${RUN_ROLE_PREFIX}${suffix}`;
  const password = randomBytes(18).toString('base64url');
  const r = quoteIdent(role);
  await onAdmin(
    connect,
    undefined,
    [
      `CREATE ROLE ${r} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ${limits.connectionLimit} PASSWORD ${quoteLiteral(password)}`,
      `ALTER ROLE ${r} SET work_mem = ${quoteLiteral(`${limits.workMemMb}MB`)}`,
      `ALTER ROLE ${r} SET maintenance_work_mem = ${quoteLiteral(`${limits.maintenanceWorkMemMb}MB`)}`,
      `ALTER ROLE ${r} SET temp_file_limit = ${quoteLiteral(`${limits.tempFileLimitMb}MB`)}`,
      `ALTER ROLE ${r} SET statement_timeout = ${limits.statementTimeoutMs}`,
    ].join('; '),
  );
  try {
    await onAdmin(connect, undefined, `CREATE DATABASE ${quoteIdent(database)} OWNER ${r} TEMPLATE ${quoteIdent(template)}`);
    await onAdmin(connect, database, `REVOKE CONNECT, TEMPORARY ON DATABASE ${quoteIdent(database)} FROM PUBLIC; REASSIGN OWNED BY ${CLONE_OWNER} TO ${r}`);
  } catch (e) {
    await dropRunIdentity(connect, { role, password, database });
    throw e;
  }
  return { role, password, database };
}

/** Drops a run's database (its sessions ended first) and then its role. */
export async function dropRunIdentity(connect: AdminConnect, run: RunIdentity): Promise<void> {
  await onAdmin(connect, undefined, `DROP DATABASE IF EXISTS ${quoteIdent(run.database)} WITH (FORCE)`).catch(() => undefined);
  await onAdmin(connect, undefined, `DROP ROLE IF EXISTS ${quoteIdent(run.role)}`).catch(() => undefined);
}

/** Extensions whose functions reach other servers or the server's files: no run may call them. */
const OUTWARD_EXTENSIONS = ['dblink', 'postgres_fdw', 'file_fdw', 'adminpack'];

/**
 * Hands the objects the builder made in a template to `dbops_clone_owner`. Foreign-data
 * wrappers (dblink's `dblink_fdw`, `postgres_fdw`) and event triggers must belong to a
 * superuser, so they go to `postgres` first: REASSIGN OWNED would fail on them with
 * `permission denied to change owner of foreign-data wrapper` and refuse the whole clone.
 */
export const HAND_TEMPLATE_TO_CLONE_OWNER = `DO $$
DECLARE r record;
BEGIN
  -- A migration must not reach past its clone: the functions of extensions that connect to other
  -- servers or touch the server's files stay with postgres and no run may call them, and no user
  -- mapping (with whatever credentials it holds) survives in the clone. A migration that calls
  -- dblink_exec then fails in the sandbox (no token) instead of writing to the live database.
  FOR r IN SELECT p.oid::regprocedure::text AS f
             FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid JOIN pg_proc p ON p.oid = d.objid
            WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
              AND e.extname IN (${OUTWARD_EXTENSIONS.map((x) => `'${x}'`).join(', ')}) LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO postgres', r.f);
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', r.f);
  END LOOP;
  FOR r IN SELECT srvname, u.umuser FROM pg_user_mapping u JOIN pg_foreign_server s ON s.oid = u.umserver LOOP
    EXECUTE format('DROP USER MAPPING FOR %s SERVER %I', CASE WHEN r.umuser = 0 THEN 'PUBLIC' ELSE quote_ident(r.umuser::regrole::text) END, r.srvname);
  END LOOP;
  FOR r IN SELECT srvname FROM pg_foreign_server WHERE srvowner = current_user::regrole LOOP
    EXECUTE format('ALTER SERVER %I OWNER TO postgres', r.srvname);
    EXECUTE format('REVOKE USAGE ON FOREIGN SERVER %I FROM PUBLIC', r.srvname);
  END LOOP;
  FOR r IN SELECT fdwname FROM pg_foreign_data_wrapper WHERE fdwowner = current_user::regrole LOOP
    EXECUTE format('ALTER FOREIGN DATA WRAPPER %I OWNER TO postgres', r.fdwname);
  END LOOP;
  FOR r IN SELECT evtname FROM pg_event_trigger WHERE evtowner = current_user::regrole LOOP
    EXECUTE format('ALTER EVENT TRIGGER %I OWNER TO postgres', r.evtname);
  END LOOP;
END $$; REASSIGN OWNED BY dbops_builder TO ${CLONE_OWNER}`;
