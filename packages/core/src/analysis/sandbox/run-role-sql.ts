import { quoteIdent, quoteLiteral } from '../../pg/quote';

/** Names of run roles (and of the embedded engine's run databases): a sweep recognises what a run left. */
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

/** The statements that make a run role, in order; both engines run them. */
export interface RunRoleSql {
  /**
   * A login role without superuser, CREATEDB, CREATEROLE, replication or RLS bypass, member of
   * nothing, with the connection limit and the password.
   */
  create: string;
  /** Its defaults for settings any role may set on a role it administers. */
  settings: string[];
  /** `temp_file_limit`: a superuser-only setting (or one granted with `GRANT SET ON PARAMETER`, 15+). */
  tempFileLimit: string;
}

export function runRoleSql(role: string, password: string, limits: RunRoleLimits): RunRoleSql {
  const r = quoteIdent(role);
  return {
    create: `CREATE ROLE ${r} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ${limits.connectionLimit} PASSWORD ${quoteLiteral(password)}`,
    settings: [
      `ALTER ROLE ${r} SET work_mem = ${quoteLiteral(`${limits.workMemMb}MB`)}`,
      `ALTER ROLE ${r} SET maintenance_work_mem = ${quoteLiteral(`${limits.maintenanceWorkMemMb}MB`)}`,
      `ALTER ROLE ${r} SET statement_timeout = ${limits.statementTimeoutMs}`,
    ],
    tempFileLimit: `ALTER ROLE ${r} SET temp_file_limit = ${quoteLiteral(`${limits.tempFileLimitMb}MB`)}`,
  };
}
