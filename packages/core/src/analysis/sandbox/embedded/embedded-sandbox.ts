import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { SchemaSnapshot } from '../../../introspection/schema-snapshot';
import { quoteIdent } from '../../../pg/quote';
import type { ParsedStatement } from '../../parse-statements';
import type { StatementFacts } from '../../statement-facts';
import type { AffectedTable, SandboxResult } from '../../types';
import { cloneAndFill } from '../clone-and-fill';
import { cloneDdl } from '../clone-ddl';
import { pgSession } from '../pg-session';
import { type CloneState, sandboxCacheKey } from '../sandbox-cache';
import { runInSandbox } from '../sandbox-run';
import type { SandboxSession } from '../sandbox-session';
import { runTimedStatement, SERVER_SKIPPED } from '../server-sandbox';
import { syntheticRowsScript } from '../synthetic-rows';
import { type EmbeddedServer, startEmbeddedServer } from './embedded-server';
import type { PgBinaries } from './pg-binaries';

/**
 * Statements the embedded engine leaves out besides the server sandbox's: roles and privileges.
 * The clone has neither the target's roles nor its grants (they are not part of the schema
 * model), and the migration runs as a role that may not create roles; GRANT, REVOKE and
 * ownership changes do not alter the schema's shape, so they are skipped rather than failed.
 */
const EMBEDDED_SKIPPED = new Set([...SERVER_SKIPPED, 'CREATE_ROLE', 'GRANT', 'REVOKE', 'GRANT_ROLE', 'REVOKE_ROLE', 'ALTER_DEFAULT_PRIVILEGES', 'ALTER_OWNER', 'REASSIGN_OWNED', 'DROP_OWNED', 'ALTER_TABLE_OWNER', 'CREATE_USER_MAPPING', 'ALTER_USER_MAPPING', 'DROP_USER_MAPPING']);
const ROLE_SQL = /^\s*(GRANT|REVOKE|CREATE\s+(ROLE|USER|GROUP)|ALTER\s+(ROLE|USER|GROUP)|DROP\s+(ROLE|USER|GROUP)|ALTER\s+DEFAULT\s+PRIVILEGES|REASSIGN\s+OWNED|DROP\s+OWNED)\b|\bOWNER\s+TO\b/i;

/** Limit on each setup statement (clone, rows, validations). */
const SETUP_STATEMENT_TIMEOUT_MS = 60_000;
/** A server nobody used for this long is stopped (the next analysis starts it again from the prepared directory). */
const IDLE_STOP_MS = 10 * 60_000;
/** Schema clones kept as template databases per server; the least recently used goes first. */
const MAX_TEMPLATES = 24;

interface WarmServer {
  server: Promise<EmbeddedServer>;
  idle?: NodeJS.Timeout;
  running: number;
  /** Clone templates by cache key, in use order (oldest first). */
  templates: Map<string, Promise<{ db: string; state: CloneState }>>;
}

const servers = new Map<string, WarmServer>();

function warmServer(bin: PgBinaries, dir: string | undefined): WarmServer {
  const key = `${bin.bin}`;
  let w = servers.get(key);
  if (!w) {
    const server = startEmbeddedServer(bin, dir);
    w = { server, running: 0, templates: new Map() };
    servers.set(key, w);
    server.catch(() => servers.delete(key)); // a failed start is tried again by the next analysis
  }
  if (w.idle) clearTimeout(w.idle);
  w.idle = undefined;
  return w;
}

function release(bin: PgBinaries, w: WarmServer): void {
  w.running--;
  if (w.running > 0) return;
  w.idle = setTimeout(() => {
    if (w.running > 0) return;
    servers.delete(bin.bin);
    void w.server.then((s) => s.stop()).catch(() => undefined);
  }, IDLE_STOP_MS);
  w.idle.unref();
}

async function connect(url: string, statementTimeoutMs?: number): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, application_name: 'dbops-sandbox', ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}) });
  // DROP DATABASE ... WITH (FORCE) ends a run's session from another connection: not an unhandled error.
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

async function adminQuery(server: EmbeddedServer, sql: string): Promise<void> {
  const c = await connect(server.adminUrl(), SETUP_STATEMENT_TIMEOUT_MS);
  try {
    await c.query(sql);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * The clone of `snapshot` as a template database on `server`, built once per clone key: the
 * schema created by the builder (a superuser, so every extension the engine has installs), the
 * synthetic rows, then everything handed to the sandbox role, and connections to the template
 * refused from then on (runs get their own copy).
 */
async function cloneTemplate(w: WarmServer, server: EmbeddedServer, snapshot: SchemaSnapshot, rowsPerTable: number): Promise<{ db: string; state: CloneState }> {
  const ddl = cloneDdl(snapshot);
  const key = `${server.binaries.version}:${sandboxCacheKey(snapshot, ddl.steps, syntheticRowsScript(snapshot, rowsPerTable).sql, rowsPerTable)}`;
  const existing = w.templates.get(key);
  if (existing) {
    w.templates.delete(key);
    w.templates.set(key, existing); // most recently used last
    return existing;
  }
  const db = `dbops_clone_${randomBytes(8).toString('hex')}`;
  const building = (async () => {
    await adminQuery(server, `CREATE DATABASE ${quoteIdent(db)} OWNER dbops_sandbox TEMPLATE template0`);
    const builder = await connect(server.builderUrl(db), SETUP_STATEMENT_TIMEOUT_MS);
    let state: CloneState;
    try {
      state = await cloneAndFill(pgSession(builder), snapshot, ddl, rowsPerTable);
      await builder.query('REASSIGN OWNED BY dbops_builder TO dbops_sandbox');
      await builder.query('ANALYZE');
    } finally {
      await builder.end().catch(() => undefined);
    }
    await adminQuery(server, `ALTER DATABASE ${quoteIdent(db)} WITH ALLOW_CONNECTIONS false`);
    return { db, state };
  })();
  w.templates.set(key, building);
  building.catch(() => {
    if (w.templates.get(key) === building) w.templates.delete(key);
    void adminQuery(server, `DROP DATABASE IF EXISTS ${quoteIdent(db)} WITH (FORCE)`).catch(() => undefined);
  });
  while (w.templates.size > MAX_TEMPLATES) {
    const [oldKey, old] = w.templates.entries().next().value as [string, Promise<{ db: string }>];
    w.templates.delete(oldKey);
    void old.then((t) => adminQuery(server, `DROP DATABASE IF EXISTS ${quoteIdent(t.db)}`)).catch(() => undefined);
  }
  return building;
}

/** The text PGlite's thread path gives at its hard deadline, so both engines read alike. */
export const deadlineResult = (deadlineMs: number, started: number): SandboxResult => {
  const detail = `The sandbox did not finish within ${Math.round(deadlineMs / 1000)} s and was stopped: a statement runs without end (an endless loop, a runaway recursive query) or takes too long on the sandbox's rows. No approval token is issued.`;
  return { passed: false, migration_applied: false, migration_error: detail, tables_created: 0, rows_inserted: 0, validation_results: [{ check: 'deadline', passed: false, detail }], duration_ms: Date.now() - started };
};

export interface EmbeddedSandboxOptions {
  timeoutMs?: number;
  rowsPerTable?: number;
  /** Hard deadline of the whole run, clone included (default budget + 30 s). */
  deadlineMs?: number;
  /** Where prepared data directories are kept (`DBOPS_SANDBOX_PG_DIR`). */
  pgDir?: string;
}

/**
 * The sandbox on a private PostgreSQL of the target's major version (`bin`): the snapshot's
 * clone is a template database built once and kept; each run gets a database copied from it,
 * applies the migration as a role without superuser under a `statement_timeout` of the budget
 * left, is validated and dropped. The server is another process, so nothing a migration does
 * can stall this one; past the hard deadline the run's backends are terminated and its database
 * dropped.
 */
export async function runEmbeddedSandbox(
  bin: PgBinaries,
  snapshot: SchemaSnapshot,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  affected: readonly AffectedTable[][],
  options: EmbeddedSandboxOptions = {},
): Promise<SandboxResult> {
  const started = Date.now();
  const budgetMs = options.timeoutMs ?? 10_000;
  const deadlineMs = options.deadlineMs ?? budgetMs + 30_000;
  const w = warmServer(bin, options.pgDir);
  w.running++;
  let server: EmbeddedServer | undefined;
  const runDb = `dbops_run_${randomBytes(8).toString('hex')}`;
  let created = false;
  const dropRun = async (): Promise<void> => {
    if (server && created) await adminQuery(server, `DROP DATABASE IF EXISTS ${quoteIdent(runDb)} WITH (FORCE)`).catch(() => undefined);
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  const run = runInSandbox(
    {
      async open() {
        server = await w.server;
        const template = await cloneTemplate(w, server, snapshot, options.rowsPerTable ?? 3);
        await adminQuery(server, `CREATE DATABASE ${quoteIdent(runDb)} OWNER dbops_sandbox TEMPLATE ${quoteIdent(template.db)}`);
        created = true;
        const session = pgSession(await connect(server.sandboxUrl(runDb), SETUP_STATEMENT_TIMEOUT_MS));
        return { session, state: template.state };
      },
      skips: (f) => EMBEDDED_SKIPPED.has(f.statement_type),
      runStatement: (session: SandboxSession, sql, remainingMs, _p, f) => (ROLE_SQL.test(sql) && !f.statement_type.startsWith('CREATE_TABLE') ? Promise.resolve() : runTimedStatement(session, sql, remainingMs)),
      afterMigration: (session) => session.exec('RESET statement_timeout'),
      async dispose(session) {
        await session?.close().catch(() => undefined);
        await dropRun();
      },
    },
    parsed,
    facts,
    affected,
    budgetMs,
    snapshot.search_path,
  );
  try {
    const outcome = await Promise.race([run, deadline]);
    if (outcome !== 'deadline') {
      // Which engine judged the migration: part of what the result means.
      outcome.validation_results.push({ check: 'engine', passed: true, detail: `PostgreSQL ${bin.version} (a private server of the target's major version)` });
      return outcome;
    }
    // Past the deadline: end whatever the run's session does; its dispose then drops the database.
    await dropRun();
    void run.catch(() => undefined);
    return deadlineResult(deadlineMs, started);
  } finally {
    clearTimeout(timer);
    release(bin, w);
  }
}
