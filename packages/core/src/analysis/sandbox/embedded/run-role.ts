import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { quoteIdent } from '../../../pg/quote';
import { fenceOutwardExtensions } from '../outward-extensions';
import { DEFAULT_RUN_ROLE_LIMITS, RUN_ROLE_PREFIX, runRoleSql, type RunRoleLimits } from '../run-role-sql';
import { CLONE_OWNER } from './embedded-server';

/** A run's own identity on the embedded server: a role made for it and a database it owns. */
export interface RunIdentity {
  role: string;
  password: string;
  database: string;
}

/** A session as the server's superuser on `database` (the maintenance database when omitted). */
export type AdminConnect = (database?: string) => Promise<pg.Client>;

/** `work` on a superuser session of `database` (the maintenance database when undefined), closed after. */
export async function withAdmin<T>(connect: AdminConnect, database: string | undefined, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = await connect(database);
  try {
    return await work(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

const onAdmin = (connect: AdminConnect, database: string | undefined, sql: string): Promise<void> =>
  withAdmin(connect, database, async (c) => {
    await c.query(sql);
  });

/**
 * Makes a run's role and its database copied from `template`: a login role without superuser,
 * CREATEDB, CREATEROLE, replication or RLS bypass, member of nothing (it inherits only the
 * implicit `pg_database_owner` of its own database, which owns `public` on 15+), with a connection limit and
 * the limits of `run-role-sql.ts`; the database owned by it, CONNECT and TEMPORARY revoked from PUBLIC (no
 * other run's role can connect to it), and every object of the clone handed from
 * `dbops_clone_owner` to it. So what the migration changes about its own role (settings, its
 * password, grants) dies with the run, and `pg_stat_activity` shows it no other run's query.
 */
export async function createRunIdentity(
  connect: AdminConnect,
  template: string,
  limits: RunRoleLimits = DEFAULT_RUN_ROLE_LIMITS,
  /** Called as each step ends (`role`, `copy`, `reassign`): where a spare's making spends its time. */
  lap: (step: string) => void = () => undefined,
): Promise<RunIdentity> {
  const suffix = randomBytes(8).toString('hex');
  const role = `${RUN_ROLE_PREFIX}${suffix}`;
  const database = `${RUN_ROLE_PREFIX}${suffix}`;
  const password = randomBytes(18).toString('base64url');
  const r = quoteIdent(role);
  const made = runRoleSql(role, password, limits);
  let roleMade = false;
  try {
    // The role and the copy on one session of the maintenance database (CREATE DATABASE runs
    // alone, outside the role's statements): a session's start (SCRAM, a backend) is about 5 ms.
    await withAdmin(connect, undefined, async (c) => {
      await c.query([made.create, ...made.settings, made.tempFileLimit].join('; '));
      roleMade = true;
      lap('role');
      await c.query(`CREATE DATABASE ${quoteIdent(database)} OWNER ${r} TEMPLATE ${quoteIdent(template)}`);
      lap('copy');
    });
    await onAdmin(connect, database, `REVOKE CONNECT, TEMPORARY ON DATABASE ${quoteIdent(database)} FROM PUBLIC; REASSIGN OWNED BY ${CLONE_OWNER} TO ${r}`);
    lap('reassign');
  } catch (e) {
    if (roleMade) await dropRunIdentity(connect, { role, password, database });
    throw e;
  }
  return { role, password, database };
}

/** Drops a run's database (its sessions ended first) and then its role, on one session. */
export async function dropRunIdentity(connect: AdminConnect, run: RunIdentity): Promise<void> {
  await withAdmin(connect, undefined, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(run.database)} WITH (FORCE)`).catch(() => undefined);
    await c.query(`DROP ROLE IF EXISTS ${quoteIdent(run.role)}`).catch(() => undefined);
  }).catch(() => undefined);
}

/**
 * Hands the objects the builder made in a template to `dbops_clone_owner`, once the outward
 * extensions are fenced (`outward-extensions.ts`: their functions, user mappings and foreign
 * servers stay with `postgres`, out of every run's reach). Foreign-data wrappers (dblink's
 * `dblink_fdw`, `postgres_fdw`) and event triggers must belong to a superuser, so they go to
 * `postgres` first: REASSIGN OWNED would fail on them with `permission denied to change owner of
 * foreign-data wrapper` and refuse the whole clone.
 */
export const HAND_TEMPLATE_TO_CLONE_OWNER = `${fenceOutwardExtensions('postgres')};
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT fdwname FROM pg_foreign_data_wrapper WHERE fdwowner = current_user::regrole LOOP
    EXECUTE format('ALTER FOREIGN DATA WRAPPER %I OWNER TO postgres', r.fdwname);
  END LOOP;
  FOR r IN SELECT evtname FROM pg_event_trigger WHERE evtowner = current_user::regrole LOOP
    EXECUTE format('ALTER EVENT TRIGGER %I OWNER TO postgres', r.evtname);
  END LOOP;
END $$; REASSIGN OWNED BY dbops_builder TO ${CLONE_OWNER}`;
