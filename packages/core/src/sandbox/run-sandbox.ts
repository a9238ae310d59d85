import { type PGlite, protocol } from '@electric-sql/pglite';
import type { ParsedStatement } from '../analysis/parse-statements';
import type { StatementFacts } from '../analysis/statement-facts';
import type { AffectedTable, SandboxResult, ValidationResult } from '../analysis/types';
import type { SchemaSnapshot } from '../introspection/schema-snapshot';
import { captureDataDir, type DataDirImage } from './data-dir-image';
import { type CloneState, type PreparedSandbox, type SandboxImageCache, sandboxCacheKey, sharedSandboxCache } from './sandbox-cache';
import { prepareSandboxSpare, takeSandboxDatabase } from './sandbox-pool';
import { type DdlStep, schemaDdl } from './schema-ddl';
import { rowCounts, runValidations } from './sandbox-validations';
import { insertSyntheticRows, syntheticRowsScript } from './synthetic-rows';

/** Sandbox settings. */
export interface SandboxOptions {
  /**
   * Wall-clock budget for applying the migration, ms (default 10000). PGlite runs in this
   * thread, so the budget is checked between statements: one endless statement is not cut short.
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
}

/** Statement types the sandbox does not run because they act on the server, not the schema. */
const SKIPPED = new Set(['VACUUM', 'VACUUM_FULL', 'ANALYZE', 'ALTER_SYSTEM', 'CREATE_DATABASE', 'DROP_DATABASE', 'CLUSTER', 'CHECKPOINT']);

/** The statement as the sandbox runs it: CONCURRENTLY removed (same end state, no transaction restriction). */
export function adaptForSandbox(p: ParsedStatement, f: StatementFacts): string | null {
  if (SKIPPED.has(f.statement_type)) return null;
  if (f.statement_type.includes('CONCURRENTLY') || f.non_transactional) return p.sql.replace(/\bCONCURRENTLY\b/i, '');
  return p.sql;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/** Clones the schema into `db` (one call when everything is supported, object by object otherwise) and fills it. */
async function cloneAndFill(db: PGlite, snapshot: SchemaSnapshot, steps: readonly DdlStep[], rowsPerTable: number): Promise<CloneState> {
  const skipped: CloneState['skipped'] = [];
  try {
    await db.exec(`BEGIN;\n${steps.map((s) => `${s.sql};`).join('\n')}\nCOMMIT;`);
  } catch {
    await db.exec('ROLLBACK').catch(() => undefined);
    for (const s of steps) {
      try {
        await db.exec(s.sql);
      } catch (e) {
        skipped.push({ object: `${s.kind} ${s.object}`, error: message(e) });
      }
    }
  }
  const created = (await db.query<{ t: string }>(`SELECT n.nspname || '.' || c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r','p') AND n.nspname NOT IN ('pg_catalog','information_schema','pg_toast')`)).rows.map((r) => r.t);
  await db.exec('BEGIN');
  const rows = await insertSyntheticRows(db, snapshot, rowsPerTable, new Set(created));
  await db.exec('COMMIT');
  const countsBefore = [...(await rowCounts(db, created))];
  return { created, skipped, rows, countsBefore };
}

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
async function clonedDatabase(snapshot: SchemaSnapshot, rowsPerTable: number, options: SandboxOptions): Promise<{ db: PGlite; state: CloneState; image?: DataDirImage }> {
  const steps = schemaDdl(snapshot);
  const cache = options.createDatabase ? false : (options.cache ?? sharedSandboxCache());
  if (cache === false) {
    const db = await (options.createDatabase ?? takeSandboxDatabase)();
    try {
      return { db, state: await cloneAndFill(db, snapshot, steps, rowsPerTable) };
    } catch (e) {
      await db.close().catch(() => undefined);
      throw e;
    }
  }
  const key = sandboxCacheKey(snapshot, steps, syntheticRowsScript(snapshot, rowsPerTable).sql, rowsPerTable);
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
    const state = await cloneAndFill(db, snapshot, steps, rowsPerTable);
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
 * Builds and caches the clone of `snapshot` ahead of its first analysis (for instance right after
 * an introspection, while nobody waits), so that analysis starts from a copy. No-op when cached.
 */
export async function prepareSandboxClone(snapshot: SchemaSnapshot, options: Pick<SandboxOptions, 'rowsPerTable' | 'cache'> = {}): Promise<void> {
  const cache = options.cache ?? sharedSandboxCache();
  const rowsPerTable = options.rowsPerTable ?? 3;
  if (cache === false || (await cache.get(sandboxCacheKey(snapshot, schemaDdl(snapshot), syntheticRowsScript(snapshot, rowsPerTable).sql, rowsPerTable)))) return;
  const { db } = await clonedDatabase(snapshot, rowsPerTable, { ...options, cache });
  await db.close();
}

/**
 * Clones the snapshot's schema into an isolated in-process PostgreSQL (PGlite), fills each table
 * with synthetic rows, applies the migration statement by statement and validates the result.
 * Nothing here has any route to the user's database.
 */
export async function runSandbox(
  snapshot: SchemaSnapshot,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  affected: readonly AffectedTable[][],
  options: SandboxOptions = {},
): Promise<SandboxResult> {
  const started = performance.now();
  const budget = options.timeoutMs ?? 10_000;
  let migrationStarted = 0;
  const elapsed = () => Math.round(performance.now() - started);
  const result: SandboxResult = { passed: false, migration_applied: false, migration_error: null, tables_created: 0, rows_inserted: 0, validation_results: [], duration_ms: 0 };
  let db: PGlite | undefined;
  let nextImage: DataDirImage | undefined;
  running++;
  try {
    const rowsPerTable = options.rowsPerTable ?? 3;
    const clone = await clonedDatabase(snapshot, rowsPerTable, options);
    db = clone.db;
    nextImage = clone.image;
    const { skipped, rows } = clone.state;
    const created = new Set(clone.state.created);
    result.tables_created = created.size;
    const touched = new Set(facts.flatMap((f) => [f.table, ...f.locks.map((l) => l.table)]).filter(Boolean));
    const blocking = skipped.filter((s) => [...touched].some((t) => s.object.endsWith(` ${t}`)));
    const cloned: ValidationResult = {
      check: 'schema_cloned',
      passed: blocking.length === 0,
      detail: skipped.length
        ? `${skipped.length} object(s) could not be cloned (${skipped.slice(0, 5).map((s) => `${s.object}: ${s.error}`).join('; ')})${blocking.length ? '' : ', none of them used by the migration'}`
        : `${created.size} table(s) cloned from the snapshot`,
    };
    result.validation_results.push(cloned);
    result.rows_inserted = rows.inserted;
    result.validation_results.push({
      check: 'synthetic_rows',
      passed: true,
      detail: rows.failures.length ? `${rows.inserted} row(s) inserted; fewer than asked in ${rows.failures.map((f) => `${f.table} (${f.error})`).slice(0, 5).join('; ')}` : `${rows.inserted} row(s) inserted`,
    });
    const before = new Map(clone.state.countsBefore);

    migrationStarted = performance.now();
    const migrationElapsed = () => performance.now() - migrationStarted;
    for (const p of parsed) {
      if (migrationElapsed() > budget) throw Object.assign(new Error(`sandbox timeout: exceeded ${budget} ms before statement ${p.index}`), { timeout: true });
      const f = facts[p.index]!;
      const sql = adaptForSandbox(p, f);
      if (sql === null) continue;
      try {
        // One simple-protocol Query, results unparsed: `exec` adds a Sync (a second turn of
        // PGlite's main loop) and parses rows nobody reads, a third of the cost of a statement.
        await db.execProtocol(protocol.serialize.query(sql), { throwOnError: true, syncToFs: false });
      } catch (e) {
        result.migration_error = `Statement ${p.index} (${f.statement_type}) failed: ${message(e)}`;
        result.validation_results.push({ check: 'migration_applied', passed: false, detail: result.migration_error });
        return result;
      }
    }
    await db.exec('COMMIT').catch(() => undefined); // close a BEGIN the migration left open
    result.migration_applied = true;
    const dataChanged = new Set<string>();
    parsed.forEach((p, k) => {
      const f = facts[k]!;
      if (/^(DELETE|TRUNCATE|INSERT|MERGE|DROP_TABLE|CREATE_TABLE)/.test(f.statement_type)) for (const a of affected[k] ?? []) dataChanged.add(a.table);
    });
    result.validation_results.push({ check: 'migration_applied', passed: true, detail: `${parsed.length} statement(s) applied` });
    result.validation_results.push(...(await runValidations(db, parsed, facts, before, dataChanged)));
    if (migrationElapsed() > budget) result.migration_error = `sandbox timeout: exceeded ${budget} ms`;
    result.passed = result.migration_error === null && result.validation_results.every((v) => v.passed);
    return result;
  } catch (e) {
    result.migration_error ??= (e as { timeout?: boolean }).timeout ? message(e) : `Sandbox setup failed: ${message(e)}`;
    result.passed = false;
    return result;
  } finally {
    result.duration_ms = elapsed();
    await db?.close().catch(() => undefined);
    running--;
    if (!options.createDatabase && running === 0) prepareSandboxSpare(nextImage);
  }
}
