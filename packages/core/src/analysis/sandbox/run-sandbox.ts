import type { PGlite } from '@electric-sql/pglite';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import type { AffectedTable, EndStateRequest, SandboxResult } from '../types';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { cloneAndFill } from './clone-and-fill';
import { captureDataDir, type DataDirImage } from '../../store/pglite-data-dir-image';
import { type CloneState, type PreparedSandbox, type SandboxCacheOptions, type SandboxImageCache, sandboxCacheKey, sharedSandboxCache } from './sandbox-cache';
import { prepareSandboxSpare, takeSandboxDatabase } from './sandbox-pool';
import { catalogWrite, targetRefusesCatalogWrite } from './catalog-write';
import { runInSandbox } from './sandbox-run';
import { deadlineResult, defaultDeadlineMs, stoppedResult } from './stopped-result';
import { pgliteSession } from './sandbox-session';
import { runOnSandboxThread, type SandboxJob, sandboxThreadsAvailable } from './sandbox-threads';
import { extensionsPgliteLacks, runServerSandbox, type SandboxServerOptions } from './server-sandbox';
import { prewarmEmbeddedSandbox, runEmbeddedSandbox } from './embedded/embedded-sandbox';
import { chooseEngine, type EngineChoice, PGLITE_MAJOR, withEngineNote } from './engine-choice';
import { cloneDdl } from './clone-ddl';
import { syntheticRowsScript } from './synthetic-rows';
import type { SandboxRollback } from './rollback-round-trip';
import { rolesNamedBy } from './target-roles';
import { quoteIdent } from '../../pg/quote';

/** Sandbox settings. */
export interface SandboxOptions {
  /**
   * Wall-clock budget for applying the migration, ms (default 10000). PGlite runs in this
   * thread, so there the budget is checked between statements: one endless statement is not cut
   * short. On a sandbox server each statement also runs under a `statement_timeout` of what is left.
   */
  timeoutMs?: number;
  /** Synthetic rows per table (default 3). */
  rowsPerTable?: number;
  /**
   * Source of the throwaway database. Default: a fresh PGlite started from the cached clone of
   * the snapshot (schema and synthetic rows), or from an empty base that is then cloned into and
   * cached. A custom source is always cloned into and never cached.
   */
  createDatabase?: () => Promise<PGlite>;
  /** Cache of schema clones (default: the process-wide one, see sandbox-cache.ts); false: no cache. */
  cache?: SandboxImageCache | false;
  /** Bounds of the process-wide cache (from the settings); plain data, so they reach a sandbox thread. */
  cacheBounds?: SandboxCacheOptions;
  /** A dedicated throwaway PostgreSQL server to run on instead of PGlite (see its `mode` for when). */
  server?: SandboxServerOptions;
  /**
   * Hard deadline of a run, clone included, ms (default `timeoutMs` + 15 s: 25 s, inside the gateway's 30 s). PGlite runs
   * on a sandbox thread where one exists; past the deadline the thread is terminated and the run
   * fails with `check: deadline`. Without threads (a bundled cloud function) it is not enforced.
   */
  deadlineMs?: number;
  /** Private memory of an embedded run's backends together, MB, past which they are ended (`DBOPS_SANDBOX_MEMORY_MB`). */
  memoryMb?: number;
  /**
   * Read the clone's schema fingerprint and table checksums once the migration applied
   * (`end_state` of the result, taken off the report by the analysis): the proof of a safe plan
   * compares two runs' end states.
   */
  captureEndState?: boolean | EndStateRequest;
  /** Sandbox threads at most (default 2). */
  maxThreads?: number;
  /**
   * Which engine runs the sandbox (`DBOPS_SANDBOX_ENGINE`): `auto` (default) picks PGlite where
   * it is exact (the target runs PostgreSQL 17 and uses no extension PGlite lacks) and a private
   * PostgreSQL of the target's major version otherwise; `pglite` and `embedded` force one.
   */
  engine?: SandboxEngineChoice;
  /** Prepared data directories of the embedded engine (`DBOPS_SANDBOX_PG_DIR`). */
  pgDir?: string;
  /** Read-only prepared data directories made ahead (`DBOPS_SANDBOX_PG_SEED_DIR`). */
  pgSeedDir?: string;
  /** The report's rollback script, run on the migrated clone and compared with the clone before (the analysis sets it). */
  rollback?: SandboxRollback;
}

export type SandboxEngineChoice = 'auto' | 'pglite' | 'embedded';

/** Sandbox runs in progress in this process (a spare is only prepared when none is left). */
let running = 0;

/** Clones being built, by cache key: a concurrent analysis of the same snapshot waits for it. */
const building = new Map<string, Promise<PreparedSandbox | undefined>>();

/**
 * A throwaway database holding the clone of `snapshot` with its synthetic rows, and what the
 * clone produced. With the cache, a snapshot analysed before starts from a copy of its clone;
 * otherwise the clone is built, checkpointed and put in the cache before the migration touches
 * it. `image` is what the instance started from (the next analysis most likely needs it again).
 */
async function clonedDatabase(
  snapshot: SchemaSnapshot,
  rowsPerTable: number,
  options: SandboxOptions,
): Promise<{ db: PGlite; state: CloneState; image?: DataDirImage }> {
  const ddl = cloneDdl(snapshot);
  const cache = options.createDatabase ? false : (options.cache ?? sharedSandboxCache(options.cacheBounds));
  if (cache === false) {
    const db = await (options.createDatabase ?? takeSandboxDatabase)();
    try {
      return { db, state: await cloneAndFill(pgliteSession(db), snapshot, ddl, rowsPerTable) };
    } catch (e) {
      await db.close().catch(() => undefined);
      throw e;
    }
  }
  const key = sandboxCacheKey(snapshot, ddl.steps, syntheticRowsScript(snapshot, rowsPerTable).sql, rowsPerTable);
  const startFrom = async (ready: PreparedSandbox | undefined) => {
    if (!ready) return undefined;
    try {
      return { db: await takeSandboxDatabase(ready.image), state: ready.state, image: ready.image };
    } catch {
      await cache.delete(key); // an image that does not start: build it again
      return undefined;
    }
  };
  const pending = building.get(key);
  if (pending) {
    const started = await startFrom(await pending);
    if (started) return started;
  }
  let finish: (v: PreparedSandbox | undefined) => void = () => undefined;
  const mine = new Promise<PreparedSandbox | undefined>((resolve) => (finish = resolve));
  building.set(key, mine);
  let db: PGlite | undefined;
  try {
    const hit = await cache.get(key);
    if (hit) {
      finish(hit);
      const started = await startFrom(hit);
      if (started) return started;
    }
    db = await takeSandboxDatabase();
    const state = await cloneAndFill(pgliteSession(db), snapshot, ddl, rowsPerTable);
    let image: DataDirImage | undefined;
    try {
      await db.exec('CHECKPOINT'); // an instance started from the image then has no WAL to replay
      image = captureDataDir(db);
    } catch {
      // Not cached this time; the analysis itself goes on.
    }
    if (image) cache.put(key, { image, state });
    finish(image && { image, state });
    return { db, state, ...(image ? { image } : {}) };
  } catch (e) {
    finish(undefined);
    await db?.close().catch(() => undefined);
    throw e;
  } finally {
    if (building.get(key) === mine) building.delete(key);
  }
}

/**
 * The sandbox on an in-process PGlite: a fresh instance from the cached clone of the snapshot
 * (or cloned into now), closed after the run; once no run is left, a spare is prepared. Called
 * on a sandbox thread (sandbox-worker.ts), or in this thread where there are none.
 */
export function runPgliteSandbox(
  snapshot: SchemaSnapshot,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  affected: readonly AffectedTable[][],
  options: SandboxOptions,
): Promise<SandboxResult> {
  let db: PGlite | undefined;
  let nextImage: DataDirImage | undefined;
  const userTables = new Set(snapshot.tables.map((t) => `${t.schema}.${t.name}`));
  const searchPath = snapshot.search_path?.length ? snapshot.search_path : ['public'];
  running++;
  return runInSandbox(
    {
      async open() {
        const clone = await clonedDatabase(snapshot, options.rowsPerTable ?? 3, options);
        db = clone.db;
        nextImage = clone.image;
        // The instance is this run's alone: the target's roles the migration names are simply made.
        const roles = rolesNamedBy(snapshot.role_names, [...parsed.map((p) => p.sql), options.rollback?.script ?? '']);
        for (const role of roles) await clone.db.exec(`CREATE ROLE ${quoteIdent(role)} NOLOGIN`);
        return { session: pgliteSession(clone.db), state: clone.state };
      },
      // PGlite's only role is a superuser (inside WebAssembly: no programs on the host). A write
      // to a system catalog passes there but fails on a target whose role is not one: refused as there.
      async runStatement(session, sql, _remainingMs, p) {
        const refusal = targetRefusesCatalogWrite(catalogWrite(p.stmt, userTables, searchPath), snapshot.role_superuser === true);
        if (refusal) throw new Error(refusal);
        await session.exec(sql);
      },
      async dispose() {
        await db?.close().catch(() => undefined);
        running--;
        if (!options.createDatabase && running === 0) prepareSandboxSpare(nextImage);
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

/**
 * A PGlite run off the request loop, on a sandbox thread with a hard deadline, whenever it can
 * be: not with a custom database source or cache (tests), which cannot cross to a thread.
 */
async function runPglite(
  snapshot: SchemaSnapshot,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  affected: readonly AffectedTable[][],
  options: SandboxOptions,
): Promise<SandboxResult> {
  if (options.createDatabase || options.cache !== undefined || !sandboxThreadsAvailable()) return runPgliteSandbox(snapshot, parsed, facts, affected, options);
  const started = Date.now();
  const deadlineMs = options.deadlineMs ?? defaultDeadlineMs(options.timeoutMs ?? 10_000);
  const job: SandboxJob = {
    snapshot,
    parsed,
    facts,
    affected,
    options: {
      timeoutMs: options.timeoutMs,
      rowsPerTable: options.rowsPerTable,
      cacheBounds: options.cacheBounds,
      rollback: options.rollback,
      captureEndState: options.captureEndState,
    },
  };
  const outcome = await runOnSandboxThread(job, deadlineMs, { maxThreads: options.maxThreads ?? 2 });
  if (outcome.kind === 'result') return outcome.result;
  return outcome.kind === 'deadline'
    ? deadlineResult(deadlineMs, started)
    : stoppedResult('sandbox_stopped', `The sandbox stopped unexpectedly (${outcome.message}). No approval token is issued.`, started);
}

/** Whether the clone lacked an object the migration touches (the `schema_cloned` check failed). */
/**
 * A migration that creates roles from code (`EXECUTE 'CREATE ROLE ' || name` in a DO block: a
 * top-level CREATE ROLE is skipped) failed on the shared server only because its run role may not
 * create roles, on a target whose role may (a superuser), with a schema PGlite clones whole.
 */
function createsRolesFromCode(r: SandboxResult, snapshot: SchemaSnapshot): boolean {
  return (
    !r.passed &&
    /permission denied to create role/.test(r.migration_error ?? '') &&
    snapshot.role_superuser === true &&
    extensionsPgliteLacks(snapshot).length === 0
  );
}

const rolesNote = (major: number): string =>
  `The migration creates roles from code, which a run on the shared PostgreSQL ${major} server may not do; it ran in a private PostgreSQL ${PGLITE_MAJOR} (PGlite) instead, where it may, which may accept syntax ${major} rejects or the reverse`;

const cloneBlocked = (r: SandboxResult): boolean => r.validation_results.some((v) => v.check === 'schema_cloned' && !v.passed);

/**
 * Where a run of `snapshot` goes: the configured sandbox server when it is used for every run
 * (`mode: 'always'`) or keeps its role for schemas PGlite cannot clone, otherwise the engine
 * {@link chooseEngine} picks.
 */
function routeOf(snapshot: SchemaSnapshot, options: SandboxOptions): { kind: 'server'; server: SandboxServerOptions } | EngineChoice {
  const server = options.server;
  if (server && (server.mode === 'always' || extensionsPgliteLacks(snapshot).length)) return { kind: 'server', server };
  return chooseEngine(snapshot, options.engine ?? 'auto');
}

/**
 * Builds ahead what the first analysis of `snapshot` will need, on the engine it will run on
 * (`prewarmAnalysis`): on the embedded engine the clone's template, its spare run identities
 * and the proof's baseline (`prewarmEmbeddedSandbox`); on PGlite an empty run, which leaves the
 * clone's image in the cache. Nothing for a configured sandbox server.
 */
export async function prewarmSandbox(snapshot: SchemaSnapshot, options: SandboxOptions = {}): Promise<void> {
  const engine = routeOf(snapshot, options);
  if (engine.kind === 'embedded') await prewarmEmbeddedSandbox(engine.binaries, snapshot, options);
  else if (engine.kind === 'pglite') await runSandbox(snapshot, [], [], [], options);
}

/**
 * Clones the snapshot's schema into an isolated throwaway database, fills each table with
 * synthetic rows, applies the migration statement by statement and validates the result. The
 * database is an in-process PGlite, or with `options.server` a database created for the run on
 * that dedicated server (see {@link SandboxServerOptions.mode} for when). Nothing here has any
 * route to the user's database.
 */
export async function runSandbox(
  snapshot: SchemaSnapshot,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  affected: readonly AffectedTable[][],
  options: SandboxOptions = {},
): Promise<SandboxResult> {
  const engine = routeOf(snapshot, options);
  if (engine.kind === 'server') return runServerSandbox(snapshot, parsed, facts, affected, engine.server, options);
  if (engine.kind === 'embedded') {
    const result = withEngineNote(await runEmbeddedSandbox(engine.binaries, snapshot, parsed, facts, affected, options), engine.note);
    if (!createsRolesFromCode(result, snapshot)) return result;
    // The run's role on the shared server may not create roles (on 15 and older CREATEROLE could
    // grant itself pg_execute_server_program); a PGlite instance is the run's alone, so there it may.
    const privateRun = withEngineNote(await runPglite(snapshot, parsed, facts, affected, options), rolesNote(engine.binaries.major));
    return { ...privateRun, duration_ms: privateRun.duration_ms + result.duration_ms };
  }
  const local = withEngineNote(await runPglite(snapshot, parsed, facts, affected, options), engine.note);
  const server = options.server;
  if (!server || !cloneBlocked(local)) return local;
  // PGlite could not clone an object the migration uses (an unsupported type, collation...):
  // the server can, so its result is the answer.
  const remote = await runServerSandbox(snapshot, parsed, facts, affected, server, options);
  return { ...remote, duration_ms: remote.duration_ms + local.duration_ms };
}
