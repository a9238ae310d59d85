import type pg from 'pg';
import { nodeBody } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import { quoteIdent } from '../../pg/quote';
import type { StatementFacts } from '../statement-facts';
import type { AffectedTable, EndStateRequest, SandboxResult } from '../types';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { pgliteExtensions } from '../../store/pglite-extensions';
import { cloneAndFill } from './clone-and-fill';
import { pgSession } from './pg-session';
import type { SandboxRollback } from './rollback-round-trip';
import { runInSandbox, sandboxTimeout } from './sandbox-run';
import { connectSandboxServer, sandboxServerError } from './sandbox-server-connection';
import { type DatabaseAddress, databaseAddress, sameAddress, type SandboxServerSettings } from './sandbox-server-settings';
import type { SandboxSession } from './sandbox-session';
import { cloneDdl } from './clone-ddl';
import { cloneAsRunRole } from './server-run-clone';
import {
  createMigrationRole,
  createRunDatabase,
  createRunRole,
  dropOrphans,
  dropRole,
  dropRunDatabase,
  newServerRun,
  serverRoleRights,
  type ServerRun,
} from './server-run-identity';

/** The sandbox server as the analysis uses it. */
export interface SandboxServerOptions extends SandboxServerSettings {
  /**
   * Host, port and database of the database under analysis: a sandbox server that is that very
   * database is refused (`sandbox_result` then says so), since nothing from the sandbox may touch it.
   */
  analysedDatabase?: () => Promise<DatabaseAddress | undefined>;
  /** How long to wait for the server to accept a connection (default 10 s). */
  connectTimeoutMs?: number;
}

/** Extensions a PGlite sandbox instance can create (plpgsql is built in). */
const PGLITE_EXTENSIONS = new Set(['plpgsql', ...Object.keys(pgliteExtensions)]);

/** Installed extensions of the snapshot the PGlite sandbox cannot create. */
export const extensionsPgliteLacks = (snapshot: SchemaSnapshot): string[] => snapshot.extensions.map((e) => e.name).filter((n) => !PGLITE_EXTENSIONS.has(n));

/**
 * Statement types the server sandbox leaves out besides the common ones: they act on roles,
 * tablespaces or other databases of the whole server, so their effect would outlive the run's
 * database and reach other analyses (ALTER ROLE could even lock the sandbox out). Roles the
 * migration creates are kept for its GRANTs and dropped after the run.
 */
export const SERVER_SKIPPED = new Set([
  'ALTER_ROLE',
  'ALTER_ROLE_SET',
  'DROP_ROLE',
  'RENAME_ROLE',
  'CREATE_TABLE_SPACE',
  'DROP_TABLE_SPACE',
  'ALTER_TABLE_SPACE_OPTIONS',
  'RENAME_TABLESPACE',
  'ALTER_DATABASE',
  'ALTER_DATABASE_SET',
  'ALTER_DATABASE_REFRESH_COLL',
  'RENAME_DATABASE',
]);

/** Limit on each statement of the setup (clone, rows, validations) and of the cleanup. */
const SETUP_STATEMENT_TIMEOUT_MS = 60_000;

/**
 * How long past its `statement_timeout` a statement may run before the client gives up on it (a
 * net for a server or pooler that does not honour the setting; the database is dropped anyway).
 */
const CLIENT_GRACE_MS = 5_000;

/**
 * Runs one migration statement on a server session under a `statement_timeout` of what is left
 * of the budget; the server cancels it then, and the client gives up {@link CLIENT_GRACE_MS}
 * later at the latest. A cancel is reported as a sandbox timeout.
 */
export async function runTimedStatement(session: SandboxSession, sql: string, remainingMs: number): Promise<void> {
  const ms = Math.max(1, Math.floor(remainingMs));
  await session.exec(`SET statement_timeout = ${ms}`);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(sandboxTimeout('client deadline')), ms + CLIENT_GRACE_MS);
  });
  try {
    await Promise.race([session.exec(sql), deadline]);
  } catch (e) {
    if ((e as { code?: string }).code === '57014') throw sandboxTimeout('statement_timeout'); // query_canceled
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** `validation_results` entry of a run on a server whose role cannot make a role per run: it passes, and says what is shared. */
export const SHARED_ROLE_CHECK = 'shared_role';

const SHARED_ROLE_DETAIL =
  "the sandbox server's role cannot create roles (it needs CREATEROLE and CREATEDB, or superuser), so this migration ran as that role, " +
  'which every analysis on that server shares: what a migration does to that role (ALTER ROLE inside a DO block), ' +
  "or to other sessions (pg_stat_activity, pg_terminate_backend), can reach other users' analyses there";

/**
 * The sandbox on the configured PostgreSQL server: a database created for this run from
 * template0, the schema cloned into it (CREATE EXTENSION works there), the synthetic rows, the
 * migration with a `statement_timeout` of the budget left for each statement, the same
 * validations as on PGlite, and the database dropped WITH (FORCE) afterwards, whatever happened.
 *
 * When the server's role may create roles, each run also has a role of its own
 * (`server-run-identity.ts`): it owns the run's database (CONNECT and TEMPORARY revoked from
 * PUBLIC) and every cloned object, the outward extensions are fenced from it, and the clone, the
 * migration and the validations run on its own login (`server-run-clone.ts`), never on the
 * configured role's session; the role is dropped after the database. Otherwise every run uses
 * the configured role, and `validation_results` says so ({@link SHARED_ROLE_CHECK}).
 * Errors about the server never quote its connection string.
 */
export async function runServerSandbox(
  snapshot: SchemaSnapshot,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  affected: readonly AffectedTable[][],
  server: SandboxServerOptions,
  options: { timeoutMs?: number; rowsPerTable?: number; rollback?: SandboxRollback; captureEndState?: boolean | EndStateRequest } = {},
): Promise<SandboxResult> {
  const connectTimeoutMs = server.connectTimeoutMs ?? 10_000;
  const adminConnect = (database?: string): Promise<pg.Client> =>
    connectSandboxServer(server.url, { ...(database ? { database } : {}), connectTimeoutMs, statementTimeoutMs: SETUP_STATEMENT_TIMEOUT_MS });
  let admin: pg.Client | undefined;
  let run: ServerRun | undefined;
  /** The run's database exists (it is dropped after the run). */
  let created = false;
  let shared = false;
  /** Roles the migration created: server-wide, so dropped once the database is gone. */
  const roles: string[] = [];

  const dropDatabase = async (): Promise<void> => {
    try {
      await dropRunDatabase(admin!, run!.database, run!.role?.name);
    } catch {
      // The maintenance connection broke: one more try on a new one.
      await admin?.end().catch(() => undefined);
      admin = await adminConnect();
      await dropRunDatabase(admin, run!.database, run!.role?.name);
    }
  };

  const result = await runInSandbox(
    {
      async open() {
        const analysed = await server.analysedDatabase?.();
        if (analysed && (await sameAddress(databaseAddress(server.url), analysed))) {
          throw new Error(
            'the sandbox server is the database under analysis (same host, port and database); DBOPS_SANDBOX_SERVER_URL must name a dedicated throwaway server',
          );
        }
        admin = await adminConnect();
        const rights = await serverRoleRights(admin);
        shared = !rights.perRun;
        run = newServerRun(rights.perRun);
        if (run.role) {
          try {
            await createRunRole(admin, run, rights);
          } catch (e) {
            throw sandboxServerError('CREATE ROLE', e);
          }
        }
        try {
          await createRunDatabase(admin, run);
        } catch (e) {
          throw sandboxServerError('CREATE DATABASE', e);
        }
        created = true;
        const ddl = cloneDdl(snapshot);
        const rowsPerTable = options.rowsPerTable ?? 3;
        if (!run.role) {
          const session = pgSession(await adminConnect(run.database));
          try {
            return { session, state: await cloneAndFill(session, snapshot, ddl, rowsPerTable) };
          } catch (e) {
            await session.close().catch(() => undefined);
            throw e;
          }
        }
        // The configured role's session on the run's database connects first: once CONNECT is
        // revoked from PUBLIC, a role that does not inherit the owner's rights could not.
        const adminSession = pgSession(await adminConnect(run.database));
        let session: SandboxSession | undefined;
        try {
          const login = { user: run.role.name, password: run.role.password };
          try {
            session = pgSession(
              await connectSandboxServer(server.url, { database: run.database, connectTimeoutMs, statementTimeoutMs: SETUP_STATEMENT_TIMEOUT_MS, login }),
            );
          } catch (e) {
            // connectSandboxServer's message names no role, host or database: the reason and a hint.
            throw new Error(
              `${(e as Error).message} as the run's role: the server's pg_hba.conf must let dbops_run_* roles log in with a password as the configured role does`,
              { cause: e },
            );
          }
          await session.exec(`REVOKE CONNECT, TEMPORARY ON DATABASE ${quoteIdent(run.database)} FROM PUBLIC`);
          return { session, state: await cloneAsRunRole(session, adminSession, snapshot, ddl, rowsPerTable, rights.superuser) };
        } catch (e) {
          await session?.close().catch(() => undefined);
          throw e;
        } finally {
          await adminSession.close().catch(() => undefined);
        }
      },
      skips: (f) => SERVER_SKIPPED.has(f.statement_type),
      async runStatement(session: SandboxSession, sql, remainingMs, p, f) {
        if (f.statement_type !== 'CREATE_ROLE') return runTimedStatement(session, sql, remainingMs);
        const name = String(nodeBody(p.stmt).role);
        // The run's role may not create roles: the configured role makes it (the name only).
        if (run?.role) await createMigrationRole(admin!, name, run.role.name);
        else await runTimedStatement(session, sql, remainingMs);
        roles.push(name);
      },
      // The validations get the setup limit back.
      afterMigration: (session) => session.exec('RESET statement_timeout'),
      async dispose(session) {
        // Ends a statement still running past the client deadline: the socket is destroyed and
        // DROP ... WITH (FORCE) terminates the backend.
        await session?.close().catch(() => undefined);
        try {
          if (created) await dropDatabase();
          // The migration's roles first: on 16+ the run's role may have granted them (grantor).
          for (const r of roles) await dropRole(admin!, r).catch(() => undefined);
          if (run?.role) await dropRole(admin!, run.role.name);
          if (admin) await dropOrphans(admin).catch(() => undefined);
        } catch {
          // Left for the orphan sweep of a later run; the result stands.
        } finally {
          await admin?.end().catch(() => undefined);
        }
      },
    },
    parsed,
    facts,
    affected,
    options.timeoutMs ?? 10_000,
    snapshot.search_path,
    snapshot.server_version_num,
    options.rollback,
    options.captureEndState,
  );
  if (shared) result.validation_results.push({ check: SHARED_ROLE_CHECK, passed: true, detail: SHARED_ROLE_DETAIL });
  return result;
}
