import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { nodeBody } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import { quoteIdent } from '../../pg/quote';
import type { StatementFacts } from '../statement-facts';
import type { AffectedTable, SandboxResult } from '../types';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { pgliteExtensions } from '../../store/pglite-template';
import { cloneAndFill } from './clone-and-fill';
import { pgSession } from './pg-session';
import type { SandboxRollback } from './rollback-round-trip';
import { runInSandbox, sandboxTimeout } from './sandbox-run';
import { connectSandboxServer, sandboxServerError } from './sandbox-server-connection';
import { type DatabaseAddress, databaseAddress, sameAddress, type SandboxServerSettings } from './sandbox-server-settings';
import type { SandboxSession } from './sandbox-session';
import { cloneDdl } from './clone-ddl';

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

/** Prefix of the databases the sandbox creates; the creation time follows in base 36. */
const PREFIX = 'dbops_sandbox_';

/** A sandbox database older than this was left by a process that died: any run may drop it. */
const ORPHAN_AGE_MS = 60 * 60_000;
let lastOrphanSweep = 0;

const newDatabaseName = (): string => `${PREFIX}${Date.now().toString(36)}_${randomBytes(6).toString('hex')}`;

/** Drops sandbox databases other runs left behind (at most every few minutes per process). */
async function dropOrphans(admin: pg.Client): Promise<void> {
  if (Date.now() - lastOrphanSweep < 5 * 60_000) return;
  lastOrphanSweep = Date.now();
  const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'dbops\\_sandbox\\_%'`);
  for (const { datname } of rows) {
    const born = parseInt(datname.slice(PREFIX.length).split('_')[0] ?? '', 36);
    if (Number.isFinite(born) && Date.now() - born > ORPHAN_AGE_MS)
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`).catch(() => undefined);
  }
}

/**
 * The sandbox on the configured PostgreSQL server: a database created for this run from
 * template0, the schema cloned into it (CREATE EXTENSION works there), the synthetic rows, the
 * migration with a `statement_timeout` of the budget left for each statement, the same
 * validations as on PGlite, and the database dropped WITH (FORCE) afterwards, whatever happened.
 * Errors about the server never quote its connection string.
 */
export function runServerSandbox(
  snapshot: SchemaSnapshot,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  affected: readonly AffectedTable[][],
  server: SandboxServerOptions,
  options: { timeoutMs?: number; rowsPerTable?: number; rollback?: SandboxRollback; captureEndState?: boolean } = {},
): Promise<SandboxResult> {
  const connectTimeoutMs = server.connectTimeoutMs ?? 10_000;
  let admin: pg.Client | undefined;
  let name: string | undefined;
  /** Roles the migration created: server-wide, so dropped once the database is gone. */
  const roles: string[] = [];

  const dropDatabase = async (): Promise<void> => {
    const sql = `DROP DATABASE IF EXISTS ${quoteIdent(name!)} WITH (FORCE)`;
    try {
      await admin!.query(sql);
    } catch {
      // The maintenance connection broke: one more try on a new one.
      await admin?.end().catch(() => undefined);
      admin = await connectSandboxServer(server.url, { connectTimeoutMs, statementTimeoutMs: SETUP_STATEMENT_TIMEOUT_MS });
      await admin.query(sql);
    }
  };

  return runInSandbox(
    {
      async open() {
        const analysed = await server.analysedDatabase?.();
        if (analysed && (await sameAddress(databaseAddress(server.url), analysed))) {
          throw new Error(
            'the sandbox server is the database under analysis (same host, port and database); DBOPS_SANDBOX_SERVER_URL must name a dedicated throwaway server',
          );
        }
        admin = await connectSandboxServer(server.url, { connectTimeoutMs, statementTimeoutMs: SETUP_STATEMENT_TIMEOUT_MS });
        const db = newDatabaseName();
        try {
          await admin.query(`CREATE DATABASE ${quoteIdent(db)} TEMPLATE template0`);
        } catch (e) {
          throw sandboxServerError('CREATE DATABASE', e);
        }
        name = db;
        const session = pgSession(await connectSandboxServer(server.url, { database: db, connectTimeoutMs, statementTimeoutMs: SETUP_STATEMENT_TIMEOUT_MS }));
        try {
          return { session, state: await cloneAndFill(session, snapshot, cloneDdl(snapshot), options.rowsPerTable ?? 3) };
        } catch (e) {
          await session.close().catch(() => undefined);
          throw e;
        }
      },
      skips: (f) => SERVER_SKIPPED.has(f.statement_type),
      async runStatement(session: SandboxSession, sql, remainingMs, p, f) {
        await runTimedStatement(session, sql, remainingMs);
        if (f.statement_type === 'CREATE_ROLE') roles.push(String(nodeBody(p.stmt).role));
      },
      // The validations get the setup limit back.
      afterMigration: (session) => session.exec('RESET statement_timeout'),
      async dispose(session) {
        // Ends a statement still running past the client deadline: the socket is destroyed and
        // DROP ... WITH (FORCE) terminates the backend.
        await session?.close().catch(() => undefined);
        try {
          if (name) await dropDatabase();
          for (const r of roles) await admin?.query(`DROP ROLE IF EXISTS ${quoteIdent(r)}`).catch(() => undefined);
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
}
