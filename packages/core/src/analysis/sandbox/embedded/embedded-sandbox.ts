import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { SchemaSnapshot } from '../../../introspection/schema-snapshot';
import { quoteIdent } from '../../../pg/quote';
import type { ParsedStatement } from '../../parse-statements';
import type { StatementFacts } from '../../statement-facts';
import type { AffectedTable, EndStateRequest, SandboxResult } from '../../types';
import { catalogWrite } from '../catalog-write';
import { cloneAndFill, searchPathSql } from '../clone-and-fill';
import { cloneDdl } from '../clone-ddl';
import { pgSession } from '../pg-session';
import { type CloneState, sandboxCacheKey } from '../sandbox-cache';
import type { SandboxRollback } from '../rollback-round-trip';
import { phaseClock, runInSandbox, type SandboxPhases } from '../sandbox-run';
import { deadlineResult, defaultDeadlineMs, memoryLimitResult } from '../stopped-result';
import type { SandboxSession } from '../sandbox-session';
import { runTimedStatement, SERVER_SKIPPED } from '../server-sandbox';
import { syntheticRowsScript } from '../synthetic-rows';
import { type EmbeddedServer, startEmbeddedServer } from './embedded-server';
import { replayCatalogWrite } from './catalog-replay';
import { MemoryWatch } from './memory-watch';
import { type SpareBaseline, warmSpareSession } from './spare-warming';
import { createMirrorRoles, dropMirrorRoles, RoleNameLocks } from './mirror-roles';
import { rolesNamedBy } from '../target-roles';
import { DEFAULT_RUN_ROLE_LIMITS } from '../run-role-sql';
import { type AdminConnect, createRunIdentity, dropRunIdentity, HAND_TEMPLATE_TO_CLONE_OWNER, type RunIdentity } from './run-role';
import type { PgBinaries } from './pg-binaries';

/**
 * Statements the embedded engine leaves out besides the server sandbox's: roles and privileges.
 * The clone has neither the target's roles nor its grants (they are not part of the schema
 * model), and the migration runs as a role that may not create roles; GRANT, REVOKE and
 * ownership changes do not alter the schema's shape, so they are skipped rather than failed.
 */
const EMBEDDED_SKIPPED = new Set([
  ...SERVER_SKIPPED,
  'CREATE_ROLE',
  'GRANT',
  'REVOKE',
  'GRANT_ROLE',
  'REVOKE_ROLE',
  'ALTER_DEFAULT_PRIVILEGES',
  'ALTER_OWNER',
  'REASSIGN_OWNED',
  'DROP_OWNED',
  'ALTER_TABLE_OWNER',
  'CREATE_USER_MAPPING',
  'ALTER_USER_MAPPING',
  'DROP_USER_MAPPING',
]);
const ROLE_SQL =
  /^\s*(GRANT|REVOKE|CREATE\s+(ROLE|USER|GROUP)|ALTER\s+(ROLE|USER|GROUP)|DROP\s+(ROLE|USER|GROUP)|ALTER\s+DEFAULT\s+PRIVILEGES|REASSIGN\s+OWNED|DROP\s+OWNED)\b|\bOWNER\s+TO\b/i;

/** Limit on each setup statement (clone, rows, validations). */
const SETUP_STATEMENT_TIMEOUT_MS = 60_000;
/** A server nobody used for this long is stopped (the next analysis starts it again from the prepared directory). */
const IDLE_STOP_MS = 10 * 60_000;
/** Schema clones kept as template databases per server; the least recently used goes first. */
const MAX_TEMPLATES = 24;
/**
 * Runs at once on one server; more wait for a slot (inside their deadline). Each run holds its
 * own session, up to its role's connection limit for sessions the migration opens, and a builder
 * session at times: 16 runs stay well inside the server's 100 connections, so many analyses at
 * once wait rather than fail with `too many clients already`.
 */
const MAX_CONCURRENT_RUNS = 16;
/**
 * Spare run identities kept ready per template: two, so two analyses of one schema close together
 * (an agent's next statement, a retry) both find theirs made. Each holds a database copy and an
 * open session; past the first per template, a server keeps {@link MAX_EXTRA_SPARES} in all.
 */
export const SPARES_PER_TEMPLATE = 2;
const MAX_EXTRA_SPARES = 8;
/** Private memory of one analysis's backends, together, past which the watch ends them (`DBOPS_SANDBOX_MEMORY_MB`). */
export const DEFAULT_RUN_MEMORY_MB = 1024;

interface WarmServer {
  server: Promise<EmbeddedServer>;
  idle?: NodeJS.Timeout;
  running: number;
  /** Clone templates by cache key, in use order (oldest first). */
  templates: Map<string, Promise<{ db: string; state: CloneState }>>;
  /**
   * Run identities (role and database copied from a template, by template name, oldest first),
   * made while the server was idle, each with a session of its role already open and warmed
   * (`prepareSpares`); up to {@link SPARES_PER_TEMPLATE} per template, made one at a time.
   */
  spares: Map<string, Array<Promise<SpareIdentity | undefined>>>;
  /** Templates whose next spare is being made. */
  filling: Set<string>;
  /** Set when the server was stopped for idleness: no more spares for it. */
  closed?: boolean;
  /** Drops and copies under way in the background. */
  background: Set<Promise<unknown>>;
  /** The memory watch of this server's run roles, made with the server. */
  memory?: MemoryWatch;
  /** Runs holding a slot, and runs waiting for one. */
  active: number;
  queue: Array<() => void>;
  /** The target roles a run has made on this server (`mirror-roles.ts`), one run per name at a time. */
  roleLocks: RoleNameLocks;
}

/**
 * A spare run identity and the session of its role, opened and warmed ahead of the run, with
 * where its making spent its time (off the answer's path; the run reports it as `(ahead) ...`).
 */
type SpareIdentity = RunIdentity & { session?: pg.Client; made?: SandboxPhases };

const servers = new Map<string, WarmServer>();

function warmServer(bin: PgBinaries, dir: string | undefined, seedDir: string | undefined): WarmServer {
  const key = `${bin.bin}`;
  let w = servers.get(key);
  if (!w) {
    const server = startEmbeddedServer(bin, dir, seedDir);
    w = {
      server,
      running: 0,
      templates: new Map(),
      spares: new Map(),
      filling: new Set(),
      background: new Set(),
      active: 0,
      queue: [],
      roleLocks: new RoleNameLocks(),
    };
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
    w.closed = true;
    servers.delete(bin.bin);
    void w.server.then((s) => s.stop()).catch(() => undefined);
  }, IDLE_STOP_MS);
  w.idle.unref();
}

async function connect(url: string, statementTimeoutMs?: number): Promise<pg.Client> {
  const c = new pg.Client({
    connectionString: url,
    application_name: 'dbops-sandbox',
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // DROP DATABASE ... WITH (FORCE) ends a run's session from another connection: not an unhandled error.
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

const adminConnect =
  (server: EmbeddedServer): AdminConnect =>
  (database) =>
    connect(server.adminUrl(database), SETUP_STATEMENT_TIMEOUT_MS);

/** A slot among the server's {@link MAX_CONCURRENT_RUNS}; the returned function gives it back. */
async function takeSlot(w: WarmServer): Promise<() => void> {
  if (w.active >= MAX_CONCURRENT_RUNS) await new Promise<void>((resolve) => w.queue.push(resolve));
  else w.active++;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    const next = w.queue.shift();
    if (next)
      next(); // the slot passes on as it is
    else w.active--;
  };
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
 * Cache keys of clones per snapshot object and row count. A connection's analyses share one
 * frozen snapshot per introspection (`ensureSnapshot(..., 'shared')`), so its key is hashed once,
 * as its DDL is computed once (`cloneDdl`'s memo), not on every run.
 */
const cloneKeys = new WeakMap<SchemaSnapshot, Map<number, string>>();

function cloneKey(snapshot: SchemaSnapshot, rowsPerTable: number): string {
  const byRows = cloneKeys.get(snapshot) ?? new Map<number, string>();
  cloneKeys.set(snapshot, byRows);
  let key = byRows.get(rowsPerTable);
  if (key === undefined) {
    key = sandboxCacheKey(snapshot, cloneDdl(snapshot).steps, syntheticRowsScript(snapshot, rowsPerTable).sql, rowsPerTable);
    byRows.set(rowsPerTable, key);
  }
  return key;
}

/**
 * The clone of `snapshot` as a template database on `server`, built once per clone key: the
 * schema created by the builder (a superuser, so every extension the engine has installs), the
 * synthetic rows, then everything handed to `dbops_clone_owner` (foreign-data wrappers and event
 * triggers to `postgres`, as PostgreSQL requires), and connections to the template refused from
 * then on (each run gets its own copy, owned by its own role).
 */
async function cloneTemplate(
  w: WarmServer,
  server: EmbeddedServer,
  snapshot: SchemaSnapshot,
  rowsPerTable: number,
): Promise<{ db: string; state: CloneState }> {
  const ddl = cloneDdl(snapshot);
  const key = `${server.binaries.version}:${cloneKey(snapshot, rowsPerTable)}`;
  const existing = w.templates.get(key);
  if (existing) {
    w.templates.delete(key);
    w.templates.set(key, existing); // most recently used last
    return existing;
  }
  const db = `dbops_clone_${randomBytes(8).toString('hex')}`;
  const building = (async () => {
    await adminQuery(server, `CREATE DATABASE ${quoteIdent(db)} TEMPLATE template0`);
    const builder = await connect(server.builderUrl(db), SETUP_STATEMENT_TIMEOUT_MS);
    let state: CloneState;
    try {
      state = await cloneAndFill(pgSession(builder), snapshot, ddl, rowsPerTable);
      await builder.query(HAND_TEMPLATE_TO_CLONE_OWNER);
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
    void old
      .then(async (t) => {
        const pool = w.spares.get(t.db) ?? [];
        w.spares.delete(t.db);
        for (const spare of await Promise.all(pool)) {
          await spare?.session?.end().catch(() => undefined);
          if (spare) await dropRunIdentity(adminConnect(server), spare);
        }
        await adminQuery(server, `DROP DATABASE IF EXISTS ${quoteIdent(t.db)}`);
      })
      .catch(() => undefined);
  }
  return building;
}

const inBackground = (w: WarmServer, work: Promise<unknown>): void => {
  const p = work.catch(() => undefined);
  w.background.add(p);
  void p.finally(() => w.background.delete(p));
};

/**
 * A run's role and database copied from `template`: the oldest spare made earlier when there is
 * one (spares are made one at a time, so it is the one most likely ready), else new ones.
 */
async function takeRunIdentity(w: WarmServer, server: EmbeddedServer, template: string, statementTimeoutMs: number): Promise<SpareIdentity> {
  const spare = w.spares.get(template)?.shift();
  const ready = await spare?.catch(() => undefined);
  if (ready) return ready;
  return createRunIdentity(adminConnect(server), template, { ...DEFAULT_RUN_ROLE_LIMITS, statementTimeoutMs });
}

/** Spares beyond the first of each template, on the whole server. */
const extraSpares = (w: WarmServer): number => [...w.spares.values()].reduce((n, pool) => n + Math.max(0, pool.length - 1), 0);

/**
 * Makes the next runs' roles and databases while nothing waits for them, one at a time, up to
 * {@link SPARES_PER_TEMPLATE} per template, and opens and warms each one's session
 * (`warmSpareSession`), paid here off the answer's path instead of by the next run.
 */
function prepareSpares(
  w: WarmServer,
  server: EmbeddedServer,
  template: string,
  tables: readonly string[],
  statementTimeoutMs: number,
  /** The clone and its runs' search path: the first spare reads the rollback proof's baseline for every run of this clone. */
  baseline?: SpareBaseline,
): void {
  const pool = w.spares.get(template) ?? [];
  if (w.closed || w.filling.has(template) || pool.length >= SPARES_PER_TEMPLATE || (pool.length > 0 && extraSpares(w) >= MAX_EXTRA_SPARES)) return;
  w.spares.set(template, pool);
  w.filling.add(template);
  const made = (async (): Promise<SpareIdentity> => {
    const { phases, mark } = phaseClock();
    const lap = (step: string) => mark(`(ahead) ${step}`);
    const run = await createRunIdentity(adminConnect(server), template, { ...DEFAULT_RUN_ROLE_LIMITS, statementTimeoutMs }, lap);
    let session: pg.Client | undefined;
    try {
      session = await connect(server.roleUrl(run.role, run.password, run.database), SETUP_STATEMENT_TIMEOUT_MS);
      await warmSpareSession(pgSession(session), tables, baseline);
      lap('warm');
      return { ...run, session, made: phases };
    } catch {
      // Warming is an optimisation: a spare without its session is still a spare.
      await session?.end().catch(() => undefined);
      return { ...run, made: phases };
    }
  })().catch(() => undefined);
  pool.push(made);
  inBackground(
    w,
    made.then((spare) => {
      w.filling.delete(template);
      // The next one, unless this one failed or the template's spares were dropped meanwhile.
      if (spare && w.spares.get(template) === pool) prepareSpares(w, server, template, tables, statementTimeoutMs);
    }),
  );
}

/**
 * What the first run of `snapshot` needs, made before it is asked for (the prewarm after an
 * introspection, issue #34): the server, the clone's template, and its spare run identities, the
 * first of which also reads the rollback proof's baseline of the clone. Unlike an empty run, no
 * run identity is taken and dropped, so the spares start at once.
 */
export async function prewarmEmbeddedSandbox(bin: PgBinaries, snapshot: SchemaSnapshot, options: EmbeddedSandboxOptions = {}): Promise<void> {
  const deadlineMs = options.deadlineMs ?? defaultDeadlineMs(options.timeoutMs ?? 10_000);
  const w = warmServer(bin, options.pgDir, options.pgSeedDir);
  w.running++;
  try {
    const server = await w.server;
    const template = await cloneTemplate(w, server, snapshot, options.rowsPerTable ?? 3);
    prepareSpares(w, server, template.db, template.state.created, deadlineMs, { state: template.state, pathSql: searchPathSql(snapshot.search_path) });
  } finally {
    release(bin, w);
  }
}

/** Resolves once the server of `bin` has no drop or spare under way (tests: what the next run finds). */
export async function embeddedBackgroundSettled(bin: PgBinaries): Promise<void> {
  const w = servers.get(bin.bin);
  while (w?.background.size) await Promise.all([...w.background]);
}

export interface EmbeddedSandboxOptions {
  timeoutMs?: number;
  rowsPerTable?: number;
  /** Hard deadline of the whole run, clone included (default: `defaultDeadlineMs`). */
  deadlineMs?: number;
  /** Private memory of the run's backends together, MB, past which they are ended (`DBOPS_SANDBOX_MEMORY_MB`, default 1024). */
  memoryMb?: number;
  /** Where prepared data directories are kept (`DBOPS_SANDBOX_PG_DIR`). */
  pgDir?: string;
  /** Read-only prepared data directories made ahead (`DBOPS_SANDBOX_PG_SEED_DIR`). */
  pgSeedDir?: string;
  /** The rollback to prove on the migrated clone. */
  rollback?: SandboxRollback;
  /** Read the end state after the migration (see `SandboxOptions.captureEndState`). */
  captureEndState?: boolean | EndStateRequest;
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
  const deadlineMs = options.deadlineMs ?? defaultDeadlineMs(budgetMs);
  const memoryBytes = (options.memoryMb ?? DEFAULT_RUN_MEMORY_MB) * 1024 * 1024;
  const w = warmServer(bin, options.pgDir, options.pgSeedDir);
  w.running++;
  let server: EmbeddedServer | undefined;
  let runIdentity: RunIdentity | undefined;
  let templateDb: string | undefined;
  let templateTables: readonly string[] = [];
  let inTransaction = false;
  let superuser: SandboxSession | undefined;
  let stopped = false;
  let giveSlot: (() => void) | undefined;
  let unwatch: (() => void) | undefined;
  let overMemory: string | undefined;
  let mirrored: string[] = [];
  let releaseRoleNames: (() => void) | undefined;
  const builderSession = async (): Promise<SandboxSession> =>
    (superuser ??= pgSession(await connect(server!.builderUrl(runIdentity!.database), SETUP_STATEMENT_TIMEOUT_MS)));
  const userTables = new Set(snapshot.tables.map((t) => `${t.schema}.${t.name}`));
  const searchPath = snapshot.search_path?.length ? snapshot.search_path : ['public'];
  // The run's database and its role go together: whatever the migration did to its role
  // (settings, password, grants) goes with it.
  const dropRun = async (): Promise<void> => {
    const run = runIdentity;
    runIdentity = undefined;
    unwatch?.();
    if (server && run) await dropRunIdentity(adminConnect(server), run);
    const roles = mirrored;
    mirrored = [];
    if (server) await dropMirrorRoles(adminConnect(server), roles).catch(() => undefined);
    releaseRoleNames?.();
    giveSlot?.();
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  let memoryStop: (detail: string) => void = () => undefined;
  const memoryStopped = new Promise<'memory'>((resolve) => {
    memoryStop = (detail) => {
      overMemory = detail;
      resolve('memory');
    };
  });
  const run = runInSandbox(
    {
      async open() {
        const { phases, mark: phase } = phaseClock();
        server = await w.server;
        w.memory ??= new MemoryWatch(() => connect(server!.adminUrl(), SETUP_STATEMENT_TIMEOUT_MS));
        phase('server');
        giveSlot = await takeSlot(w);
        if (stopped) throw new Error('stopped at the deadline while waiting for a slot');
        phase('slot');
        // The target's roles the migration (or its rollback) names exist for this run only.
        const roleNames = rolesNamedBy(snapshot.role_names, [...parsed.map((p) => p.sql), options.rollback?.script ?? '']);
        releaseRoleNames = await w.roleLocks.acquire(roleNames);
        mirrored = await createMirrorRoles(adminConnect(server), roleNames);
        if (stopped) throw new Error('stopped at the deadline');
        if (roleNames.length) phase('target_roles');
        const template = await cloneTemplate(w, server, snapshot, options.rowsPerTable ?? 3);
        templateDb = template.db;
        templateTables = template.state.created;
        phase('clone');
        const taken = await takeRunIdentity(w, server, template.db, deadlineMs);
        runIdentity = { role: taken.role, password: taken.password, database: taken.database };
        if (stopped) {
          await taken.session?.end().catch(() => undefined);
          throw new Error('stopped at the deadline');
        }
        phase('run_identity');
        if (taken.made) phases.push(...taken.made);
        unwatch = w.memory.watch(runIdentity.role, memoryBytes, memoryStop);
        const session = pgSession(
          taken.session ?? (await connect(server.roleUrl(runIdentity.role, runIdentity.password, runIdentity.database), SETUP_STATEMENT_TIMEOUT_MS)),
        );
        phase(taken.session ? 'connect (warmed ahead)' : 'connect');
        return { session, state: template.state, phases };
      },
      skips: (f) => EMBEDDED_SKIPPED.has(f.statement_type),
      // The two kinds of statement the builder applies below, in its own session.
      runsAlone: (p, f) =>
        (f.subcommands.length > 0 && f.subcommands.every((c) => c.subtype === 'AT_DisableTrigAll' || c.subtype === 'AT_EnableTrigAll')) ||
        (snapshot.role_superuser === true && catalogWrite(p.stmt, userTables, searchPath).kind === 'index_flags'),
      async runStatement(session: SandboxSession, sql, remainingMs, p, f, inTx) {
        inTransaction = inTx;
        if (ROLE_SQL.test(sql) && !f.statement_type.startsWith('CREATE_TABLE')) return;
        // Disabling or enabling all triggers (foreign keys' system triggers too) needs a
        // superuser, as the migration's owner usually is on the target. The statement has no
        // expression to abuse, so it alone runs as the builder, on the run's database; inside a
        // BEGIN block it would wait on the migration's own locks, so there it runs as is.
        if (!inTransaction && f.subcommands.length > 0 && f.subcommands.every((c) => c.subtype === 'AT_DisableTrigAll' || c.subtype === 'AT_EnableTrigAll')) {
          return runTimedStatement(await builderSession(), sql, remainingMs);
        }
        // A write to a system catalog needs a superuser on the target too; the migration's own
        // text never runs as one here (docs/migration-analysis.md, "Catalog writes").
        const write = catalogWrite(p.stmt, userTables, searchPath);
        if (write.kind !== 'none') {
          const ctx = { sandbox: session, superuser: builderSession, targetSuperuser: snapshot.role_superuser === true, inTransaction };
          if (await replayCatalogWrite(write, ctx)) return;
        }
        return runTimedStatement(session, sql, remainingMs);
      },
      afterMigration: (session) => session.exec('RESET statement_timeout'),
      async dispose(session) {
        await session?.close().catch(() => undefined);
        await superuser?.close().catch(() => undefined);
        // Off the answer's path: the drop, and the copy the next run of this schema will take.
        inBackground(w, dropRun());
        if (server && templateDb && !stopped) prepareSpares(w, server, templateDb, templateTables, deadlineMs);
      },
    },
    parsed,
    facts,
    affected,
    budgetMs,
    snapshot.search_path,
    snapshot.server_version_num,
    options.rollback,
    options.captureEndState,
  );
  try {
    // Which engine judged the migration (or was stopped): part of what the result means.
    const engine = { check: 'engine', passed: true, detail: `PostgreSQL ${bin.version} (a private server of the target's major version)` };
    const outcome = await Promise.race([run, deadline, memoryStopped]);
    if (outcome === 'memory' || overMemory) {
      // The watch ended the run's backends; the run itself then fails on its lost session.
      stopped = true;
      await dropRun();
      void run.catch(() => undefined);
      const result = memoryLimitResult(overMemory ?? 'over the memory bound', started);
      result.validation_results.push(engine);
      return result;
    }
    if (outcome !== 'deadline') {
      outcome.validation_results.push(engine);
      return outcome;
    }
    // Past the deadline: end whatever the run's session does; its dispose then drops the database.
    stopped = true;
    await dropRun();
    void run.catch(() => undefined);
    const result = deadlineResult(deadlineMs, started);
    result.validation_results.push(engine);
    return result;
  } finally {
    clearTimeout(timer);
    release(bin, w);
  }
}
