import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { quoteIdent } from '../../pg/quote';
import { DEFAULT_RUN_ROLE_LIMITS, RUN_ROLE_PREFIX, runRoleSql, type RunRoleLimits } from './run-role-sql';

/** Prefix of the databases the server sandbox creates; the creation time follows in base 36. */
const DATABASE_PREFIX = 'dbops_sandbox_';

/** A run database or run role older than this was left by a process that died: any run may drop it. */
const ORPHAN_AGE_MS = 60 * 60_000;
/** When each sandbox server (host, port, role) was last swept from this process. */
const lastOrphanSweep = new Map<string, number>();

/** A run's role on a sandbox server: `dbops_run_<creation time, base 36>_<random>`, so a sweep can tell its age. */
const RUN_ROLE_NAME = new RegExp(`^${RUN_ROLE_PREFIX}([0-9a-z]+)_[0-9a-f]{12}$`);

/**
 * What one run owns on the sandbox server: its database, and, when the configured role may
 * create roles, a role of its own (same suffix) that owns the database and runs the migration.
 */
export interface ServerRun {
  database: string;
  role?: { name: string; password: string };
}

/** Names for a new run (the role is made only when {@link ServerRoleRights.perRun}). */
export function newServerRun(withRole: boolean): ServerRun {
  const suffix = `${Date.now().toString(36)}_${randomBytes(6).toString('hex')}`;
  return {
    database: `${DATABASE_PREFIX}${suffix}`,
    ...(withRole ? { role: { name: `${RUN_ROLE_PREFIX}${suffix}`, password: randomBytes(18).toString('base64url') } } : {}),
  };
}

/** What the sandbox server's configured role may do. */
export interface ServerRoleRights {
  superuser: boolean;
  /** It may make a role per run: a superuser, or CREATEROLE with CREATEDB. */
  perRun: boolean;
}

export async function serverRoleRights(admin: pg.Client): Promise<ServerRoleRights> {
  const { rows } = await admin.query<{ rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean }>(
    'SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_catalog.pg_roles WHERE rolname = current_user',
  );
  const r = rows[0];
  const superuser = r?.rolsuper === true;
  return { superuser, perRun: superuser || (r?.rolcreaterole === true && r.rolcreatedb === true) };
}

const code = (e: unknown): unknown => (e as { code?: unknown } | null)?.code;

/**
 * Makes the run's role (see `run-role-sql.ts`: no superuser, CREATEDB, CREATEROLE, replication
 * or RLS bypass, member of nothing, a connection limit and per-role limits). `temp_file_limit`
 * needs a superuser (or `GRANT SET ON PARAMETER`, 15+): without that right the role goes without
 * it and the server's own limit applies. A configured role that is not a superuser becomes a
 * member of the run role (never the reverse): PostgreSQL lets it create a database owned by the
 * run role, and drop it, only then. On 16+ a CREATEROLE role holds ADMIN on the roles it
 * creates, which allows that GRANT; before 16 CREATEROLE alone does.
 */
export async function createRunRole(
  admin: pg.Client,
  run: ServerRun,
  rights: ServerRoleRights,
  limits: RunRoleLimits = DEFAULT_RUN_ROLE_LIMITS,
): Promise<void> {
  const role = run.role!;
  const made = runRoleSql(role.name, role.password, limits);
  await admin.query(made.create);
  for (const s of made.settings) await admin.query(s);
  await admin.query(made.tempFileLimit).catch((e: unknown) => {
    if (code(e) !== '42501') throw e; // insufficient_privilege: the server-wide limit stays
  });
  if (!rights.superuser) await admin.query(`GRANT ${quoteIdent(role.name)} TO CURRENT_USER`);
}

/** The run's database, from template0, owned by the run's role when it has one. */
export async function createRunDatabase(admin: pg.Client, run: ServerRun): Promise<void> {
  const owner = run.role ? ` OWNER ${quoteIdent(run.role.name)}` : '';
  await admin.query(`CREATE DATABASE ${quoteIdent(run.database)}${owner} TEMPLATE template0`);
}

/**
 * A role the migration creates (`CREATE ROLE name ...`), made by the configured role since the
 * run's role may not create roles: the name only (attributes, passwords and memberships the
 * statement asks for are not the schema's business, and a SUPERUSER or `IN ROLE` option must
 * not reach the server), granted to the run's role WITH ADMIN OPTION so the migration's GRANTs
 * of it and to it work. Dropped after the run with the others it made.
 */
export async function createMigrationRole(admin: pg.Client, name: string, runRole: string): Promise<void> {
  await admin.query(`CREATE ROLE ${quoteIdent(name)}`);
  await admin.query(`GRANT ${quoteIdent(name)} TO ${quoteIdent(runRole)} WITH ADMIN OPTION`);
}

/**
 * Drops a run's database, ending its sessions. A configured role that does not inherit its
 * membership in the run's role (NOINHERIT) holds no owner's rights until it takes that role:
 * then it drops the database as `owner`.
 */
export async function dropRunDatabase(admin: pg.Client, database: string, owner: string | undefined): Promise<void> {
  const sql = `DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`;
  try {
    await admin.query(sql);
  } catch (e) {
    if (!owner || code(e) !== '42501') throw e;
    await admin.query(`SET ROLE ${quoteIdent(owner)}`);
    try {
      await admin.query(sql);
    } finally {
      await admin.query('RESET ROLE');
    }
  }
}

/** Drops a role (the run's, or one its migration created) once the run's database is gone. */
export const dropRole = (admin: pg.Client, name: string): Promise<unknown> => admin.query(`DROP ROLE IF EXISTS ${quoteIdent(name)}`);

const olderThan = (base36: string | undefined, ms: number): boolean => {
  const born = parseInt(base36 ?? '', 36);
  return Number.isFinite(born) && Date.now() - born > ms;
};

/**
 * Drops run databases and then run roles that other runs left behind (a process that died
 * mid-run), at most every few minutes per process and sandbox server. Only names in the run
 * formats, older than any run lasts, are touched; what the configured role may not drop stays
 * (a later sweep, or the server's owner, takes it). `force` sweeps regardless of the last sweep (tests: the
 * throttle is module state, shared by every file a test worker runs).
 */
export async function dropOrphans(admin: pg.Client, options: { force?: boolean } = {}): Promise<void> {
  // Per server and role: what one configured server's sweep found says nothing of another's.
  const key = `${admin.host}:${admin.port}:${admin.user ?? ''}`;
  if (!options.force && Date.now() - (lastOrphanSweep.get(key) ?? 0) < 5 * 60_000) return;
  lastOrphanSweep.set(key, Date.now());
  const dbs = await admin.query<{ datname: string; owner: string }>(
    `SELECT datname, pg_catalog.pg_get_userbyid(datdba) AS owner FROM pg_catalog.pg_database WHERE datname LIKE 'dbops\\_sandbox\\_%'`,
  );
  for (const { datname, owner } of dbs.rows) {
    if (olderThan(datname.slice(DATABASE_PREFIX.length).split('_')[0], ORPHAN_AGE_MS))
      await dropRunDatabase(admin, datname, RUN_ROLE_NAME.test(owner) ? owner : undefined).catch(() => undefined);
  }
  const roles = await admin.query<{ rolname: string }>(`SELECT rolname FROM pg_catalog.pg_roles WHERE rolname LIKE 'dbops\\_run\\_%'`);
  for (const { rolname } of roles.rows) {
    const m = RUN_ROLE_NAME.exec(rolname);
    if (m && olderThan(m[1], ORPHAN_AGE_MS)) await dropRole(admin, rolname).catch(() => undefined);
  }
}
