import type { PGlite } from '@electric-sql/pglite';
import type { ParsedStatement } from '../analysis/parse-statements';
import type { StatementFacts } from '../analysis/statement-facts';
import type { AffectedTable, SandboxResult, ValidationResult } from '../analysis/types';
import type { SchemaSnapshot } from '../introspection/schema-snapshot';
import { takeSandboxDatabase } from './sandbox-pool';
import { schemaDdl } from './schema-ddl';
import { rowCounts, runValidations } from './sandbox-validations';
import { insertSyntheticRows } from './synthetic-rows';

/** Sandbox settings. */
export interface SandboxOptions {
  /**
   * Wall-clock budget for applying the migration, ms (default 10000). PGlite runs in this
   * thread, so the budget is checked between statements: one endless statement is not cut short.
   */
  timeoutMs?: number;
  /** Synthetic rows per table (default 3). */
  rowsPerTable?: number;
  /** Source of the throwaway database (default: a fresh PGlite from the prepared template). */
  createDatabase?: () => Promise<PGlite>;
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
  try {
    db = await (options.createDatabase ?? takeSandboxDatabase)();
    // Clone: one round trip when everything is supported, object by object otherwise.
    const steps = schemaDdl(snapshot);
    const skipped: { object: string; error: string }[] = [];
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
    const created = new Set((await db.query<{ t: string }>(`SELECT n.nspname || '.' || c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r','p') AND n.nspname NOT IN ('pg_catalog','information_schema','pg_toast')`)).rows.map((r) => r.t));
    result.tables_created = created.size;
    const touched = new Set(facts.flatMap((f) => [f.table, ...f.locks.map((l) => l.table)]).filter(Boolean));
    const blocking = skipped.filter((s) => [...touched].some((t) => s.object.endsWith(` ${t}`)));
    const clone: ValidationResult = {
      check: 'schema_cloned',
      passed: blocking.length === 0,
      detail: skipped.length
        ? `${skipped.length} object(s) could not be cloned (${skipped.slice(0, 5).map((s) => `${s.object}: ${s.error}`).join('; ')})${blocking.length ? '' : ', none of them used by the migration'}`
        : `${created.size} table(s) cloned from the snapshot`,
    };
    result.validation_results.push(clone);

    await db.exec('BEGIN');
    const rows = await insertSyntheticRows(db, snapshot, options.rowsPerTable ?? 3, created);
    await db.exec('COMMIT');
    result.rows_inserted = rows.inserted;
    result.validation_results.push({
      check: 'synthetic_rows',
      passed: true,
      detail: rows.failures.length ? `${rows.inserted} row(s) inserted; fewer than asked in ${rows.failures.map((f) => `${f.table} (${f.error})`).slice(0, 5).join('; ')}` : `${rows.inserted} row(s) inserted`,
    });
    const before = await rowCounts(db, [...created]);

    migrationStarted = performance.now();
    const migrationElapsed = () => performance.now() - migrationStarted;
    for (const p of parsed) {
      if (migrationElapsed() > budget) throw Object.assign(new Error(`sandbox timeout: exceeded ${budget} ms before statement ${p.index}`), { timeout: true });
      const f = facts[p.index]!;
      const sql = adaptForSandbox(p, f);
      if (sql === null) continue;
      try {
        await db.exec(sql);
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
  }
}
