import { rangeVarName } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import type { AffectedTable, EndStateRequest, SandboxResult, ValidationResult } from '../types';
import { firstLine, searchPathSql } from './clone-and-fill';
import type { CloneState } from './sandbox-cache';
import type { SandboxSession } from './sandbox-session';
import { runValidations, withInheritance } from './sandbox-validations';
import { describeSkipped, skippedInUse, type SkippedCloneObject } from './clone-skips';
import { readEndState } from './end-state';
import { type PlanSegment, planStatements, segmentPlan } from '../../migration-execution/migration-plan';
import { type ProofBaseline, readProofBaseline, type RollbackProof, roundTripStart, runRollbackRoundTrip, type SandboxRollback } from './rollback-round-trip';

/** What the sandbox could not judge, plainly. */
const uncloned = (blocking: readonly SkippedCloneObject[]): string =>
  `The migration uses ${blocking.length === 1 ? 'an object' : 'objects'} the sandbox could not clone (${describeSkipped(blocking, 3)}), so the sandbox cannot vouch for it`;

const PARTITION_MOVES = new Set(['AT_AttachPartition', 'AT_DetachPartition', 'AT_DetachPartitionFinalize']);

/** Statement types no sandbox runs because they act on the server, not the schema. */
const SKIPPED = new Set(['VACUUM', 'VACUUM_FULL', 'ANALYZE', 'ALTER_SYSTEM', 'CREATE_DATABASE', 'DROP_DATABASE', 'CLUSTER', 'CHECKPOINT']);

/** The statement as the sandbox runs it: CONCURRENTLY removed (same end state, no transaction restriction). */
export function adaptForSandbox(p: ParsedStatement, f: StatementFacts): string | null {
  if (SKIPPED.has(f.statement_type)) return null;
  if (f.statement_type.includes('CONCURRENTLY') || f.non_transactional) return p.sql.replace(/\bCONCURRENTLY\b/i, '');
  return p.sql;
}

/** A sandbox timeout: reported as `migration_error` as it is, never as a setup failure. */
export const sandboxTimeout = (text: string): Error => Object.assign(new Error(`sandbox timeout: ${text}`), { timeout: true });
const isTimeout = (e: unknown): boolean => (e as { timeout?: boolean } | null)?.timeout === true;

/** What differs between the engines a sandbox run can use. */
export interface SandboxEngine {
  /** The throwaway database holding the clone of the snapshot with its synthetic rows, and what the clone produced. */
  open(): Promise<{ session: SandboxSession; state: CloneState; phases?: SandboxPhases }>;
  /** Whether the engine also leaves out this statement (default: only the common skips). */
  skips?(f: StatementFacts): boolean;
  /**
   * Runs one migration statement with `remainingMs` of the budget left (default: `exec`). Throws
   * an error made by {@link sandboxTimeout} when the budget ran out during the statement.
   */
  runStatement?(session: SandboxSession, sql: string, remainingMs: number, p: ParsedStatement, f: StatementFacts, inTransaction: boolean): Promise<void>;
  /**
   * Statements this engine applies in a session of its own (as the clone builder), which would
   * wait on the migration's transaction: outside a BEGIN block of the script, the transaction
   * around them is committed before and opened again after (default: none).
   */
  runsAlone?(p: ParsedStatement, f: StatementFacts): boolean;
  /** Called once every statement applied, before the validations. */
  afterMigration?(session: SandboxSession): Promise<void>;
  /** Always called last, whatever happened (closes and removes the throwaway database). */
  dispose(session: SandboxSession | undefined): Promise<void>;
}

/**
 * The migration's transactions as the executor will run them: the same planning function
 * (migration-execution's `planStatements` and `segmentPlan`), so a LOCK TABLE, SET LOCAL or
 * SAVEPOINT meets the transaction it will meet on the target, CONCURRENTLY statements run alone,
 * and the script's own COMMIT ends a transaction. `serverVersionNum` is the target's.
 */
export function sandboxSegments(parsed: readonly ParsedStatement[], serverVersionNum: number): PlanSegment[] {
  return segmentPlan(planStatements(parsed, serverVersionNum));
}

/** Indexes of the statements inside the script's own BEGIN ... COMMIT blocks. */
function explicitBlocks(parsed: readonly ParsedStatement[]): Set<number> {
  const out = new Set<number>();
  let open = false;
  for (const p of parsed) {
    const b = p.stmt.TransactionStmt as { kind?: string } | undefined;
    if (b?.kind === 'TRANS_STMT_BEGIN' || b?.kind === 'TRANS_STMT_START') open = true;
    else if (b?.kind === 'TRANS_STMT_COMMIT' || b?.kind === 'TRANS_STMT_ROLLBACK') open = false;
    else if (open) out.add(p.index);
  }
  return out;
}

/**
 * A sandbox result with, when a rollback was given and the migration applied, what its round
 * trip showed (`rollback_proof`, null when the proof itself could not run). The analysis folds
 * it into the rollback plan and removes it from `sandbox_result`.
 */
export type SandboxRunResult = SandboxResult & { rollback_proof?: RollbackProof | null; phases?: SandboxPhases };

/**
 * Where a run's time went, in ms, phase by phase in order (the engine's own set-up phases first:
 * slot, clone or cache hit, run identity, connect). Kept off the report; the analysis hands it to
 * the debug log and the benches (issue #34: "find where the time goes").
 */
export type SandboxPhases = Array<[phase: string, ms: number]>;

/** Records phases as laps: `mark(name)` closes the phase that began at the previous mark (or `from`). */
export function phaseClock(from = performance.now(), phases: SandboxPhases = []): { phases: SandboxPhases; mark(name: string): void; restart(): void } {
  let lap = from;
  return {
    phases,
    mark(name) {
      const now = performance.now();
      phases.push([name, Math.round(now - lap)]);
      lap = now;
    },
    restart() {
      lap = performance.now();
    },
  };
}

/** The PostgreSQL release the executor plans for when the target's is not known (only ADD VALUE before 12 differs). */
const DEFAULT_SERVER_VERSION = 170000;

/**
 * Baselines of clones before any migration (fingerprint, catalog census), per clone state and
 * search path. Every run of a cached clone starts from a copy of the same database (a template,
 * or a data-directory image), and neither holds owners or grants, so the first run's reading
 * stands for all of them; on a 170-table schema that is one catalog query of 80-270 ms less per
 * analysis. The census and the owners name objects with their oids, which a copy keeps: should a
 * copy differ, its objects only look touched and are read again.
 */
const fingerprintsBefore = new WeakMap<CloneState, Map<string, Promise<ProofBaseline>>>();

export function cloneFingerprint(state: CloneState, session: SandboxSession, pathSql: string | null): Promise<ProofBaseline> {
  const byPath = fingerprintsBefore.get(state) ?? new Map<string, Promise<ProofBaseline>>();
  fingerprintsBefore.set(state, byPath);
  const key = pathSql ?? '';
  const known = byPath.get(key);
  if (known) return known;
  const reading = readProofBaseline(session);
  byPath.set(key, reading);
  reading.catch(() => byPath.delete(key));
  return reading;
}

/**
 * A sandbox run on `engine`: the clone's checks, the migration statement by statement within
 * `budgetMs` under the snapshot's `searchPath` (the user's database resolves its unqualified
 * names there), then the validations. Fills `sandbox_result` the same way whichever engine ran it.
 */
export async function runInSandbox(
  engine: SandboxEngine,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  affected: readonly AffectedTable[][],
  budgetMs: number,
  searchPath?: readonly string[],
  serverVersionNum: number = DEFAULT_SERVER_VERSION,
  rollback?: SandboxRollback,
  captureEndState: boolean | EndStateRequest = false,
): Promise<SandboxRunResult> {
  const started = performance.now();
  const result: SandboxRunResult = {
    passed: false,
    migration_applied: false,
    migration_error: null,
    tables_created: 0,
    rows_inserted: 0,
    validation_results: [],
    duration_ms: 0,
  };
  let session: SandboxSession | undefined;
  const clock = phaseClock(started);
  result.phases = clock.phases;
  const phase = clock.mark;
  try {
    const opened = await engine.open();
    if (opened.phases) {
      clock.phases.push(...opened.phases);
      clock.restart();
    } else phase('open');
    session = opened.session;
    const { skipped, rows } = opened.state;
    const created = new Set(opened.state.created);
    result.tables_created = created.size;
    const blocking = skippedInUse(skipped, parsed, facts);
    const cloned: ValidationResult = {
      check: 'schema_cloned',
      passed: blocking.length === 0,
      detail: skipped.length
        ? `${skipped.length} object(s) could not be cloned (${describeSkipped(skipped)})${blocking.length ? `; the migration uses ${blocking.map((b) => b.object).join(', ')}` : ', none of them used by the migration'}`
        : `${created.size} table(s) cloned from the snapshot`,
    };
    result.validation_results.push(cloned);
    result.rows_inserted = rows.inserted;
    result.validation_results.push({
      check: 'synthetic_rows',
      passed: true,
      detail: rows.failures.length
        ? `${rows.inserted} row(s) inserted; fewer than asked in ${rows.failures
            .map((f) => `${f.table} (${f.error})`)
            .slice(0, 5)
            .join('; ')}`
        : `${rows.inserted} row(s) inserted`,
    });
    const before = new Map(opened.state.countsBefore);
    // Again here: a session started from a cached clone has the default path.
    const setPath = searchPathSql(searchPath);
    if (setPath) await session.exec(setPath);

    const dataChanged = new Set<string>();
    parsed.forEach((p, k) => {
      const f = facts[k]!;
      if (/^(DELETE|TRUNCATE|INSERT|MERGE|DROP_TABLE|CREATE_TABLE)/.test(f.statement_type)) for (const a of affected[k] ?? []) dataChanged.add(a.table);
      // Attaching or detaching moves a partition's rows into or out of its parent's count.
      for (const c of f.subcommands)
        if (PARTITION_MOVES.has(String(c.subtype))) {
          dataChanged.add(f.table);
          dataChanged.add(rangeVarName(c.def?.PartitionCmd?.name));
        }
    });
    // Partitions and children of the tables written, read before the migration: a dropped
    // partitioned table takes its partitions along, and afterwards no catalog row links them.
    const writtenBefore = dataChanged.size ? await withInheritance(session, dataChanged) : new Set<string>();
    // The clone as it was, for the rollback's round trip: read once per cached clone.
    const schemaBefore = rollback ? await cloneFingerprint(opened.state, session, setPath) : undefined;
    // Catalog rows written from here on are the round trip's (the census's `fresh` rows).
    const sinceXid = schemaBefore ? await roundTripStart(session) : null;
    phase('before');
    const migrationStarted = performance.now();
    const migrationElapsed = () => performance.now() - migrationStarted;
    const byIndex = new Map(parsed.map((p) => [p.index, p]));
    const failed = (p: ParsedStatement, e: unknown, at = ''): SandboxResult => {
      result.migration_error = `Statement ${p.index} (${facts[p.index]!.statement_type}) failed: ${firstLine(e)}${at}`;
      // Not the migration's fault: say what the sandbox lacked rather than only "does not exist".
      if (blocking.length)
        result.migration_error = `${uncloned(blocking)}; in the sandbox, ${result.migration_error.charAt(0).toLowerCase()}${result.migration_error.slice(1)}`;
      result.validation_results.push({ check: 'migration_applied', passed: false, detail: result.migration_error });
      return result;
    };
    const inBlock = explicitBlocks(parsed);
    for (const segment of sandboxSegments(parsed, serverVersionNum)) {
      let open = false;
      let last: ParsedStatement | undefined;
      const first = segment.statements[0]!.index;
      for (const planned of segment.statements) {
        const p = byIndex.get(planned.index)!;
        if (migrationElapsed() > budgetMs) throw sandboxTimeout(`exceeded ${budgetMs} ms before statement ${p.index}`);
        const f = facts[p.index]!;
        const sql = adaptForSandbox(p, f);
        if (sql === null || engine.skips?.(f)) continue;
        const alone = !inBlock.has(p.index) && engine.runsAlone?.(p, f) === true;
        try {
          if (alone && open) {
            await session.exec('COMMIT');
            open = false;
          }
          if (segment.transactional && !open && !alone) {
            await session.exec('BEGIN');
            open = true;
          }
          if (engine.runStatement) await engine.runStatement(session, sql, budgetMs - migrationElapsed(), p, f, open);
          else await session.exec(sql);
          last = p;
        } catch (e) {
          if (open) await session.exec('ROLLBACK').catch(() => undefined);
          if (isTimeout(e)) throw sandboxTimeout(`exceeded ${budgetMs} ms in statement ${p.index}`);
          return failed(p, e);
        }
      }
      if (open) {
        try {
          await session.exec('COMMIT');
        } catch (e) {
          // A deferred constraint is checked here: the transaction's last statement answers for it.
          await session.exec('ROLLBACK').catch(() => undefined);
          return failed(last!, e, ` (at the COMMIT of the transaction of statements ${first}-${last!.index})`);
        }
      }
    }
    await engine.afterMigration?.(session);
    phase('migration');
    result.migration_applied = true;
    result.validation_results.push({ check: 'migration_applied', passed: true, detail: `${parsed.length} statement(s) applied` });
    result.validation_results.push(...(await runValidations(session, parsed, facts, before, dataChanged, writtenBefore)));
    phase('validations');
    if (migrationElapsed() > budgetMs) result.migration_error = `sandbox timeout: exceeded ${budgetMs} ms`;
    else if (blocking.length) result.migration_error = uncloned(blocking);
    // A refusal always says why: the first failed check becomes the error when no statement failed.
    const failedChecks = result.validation_results.filter((v) => !v.passed);
    if (result.migration_error === null && failedChecks.length)
      result.migration_error = `Check ${failedChecks[0]!.check} failed: ${failedChecks[0]!.detail}${failedChecks.length > 1 ? ` (and ${failedChecks.length - 1} more failed check(s))` : ''}`;
    result.passed = result.migration_error === null && failedChecks.length === 0;
    // The end state before the rollback proof, which takes the clone back to where it started.
    if (captureEndState && result.passed) result.end_state = await readEndState(session, captureEndState === true ? {} : captureEndState);
    // After the verdict: the rollback's own time and outcome never decide whether the migration passes.
    // Only with time to spare: a run's hard deadline (budget + 30 s by default) covers the whole
    // run, and the proof must never be what stops a migration's run.
    if (rollback && schemaBefore)
      result.rollback_proof =
        performance.now() - started < budgetMs
          ? await runRollbackRoundTrip(session, rollback, schemaBefore, before, serverVersionNum, sinceXid).catch(() => null)
          : null;
    if (rollback && schemaBefore) phase('rollback_proof');
    return result;
  } catch (e) {
    result.migration_error ??= isTimeout(e) ? firstLine(e) : `Sandbox setup failed: ${firstLine(e)}`;
    result.passed = false;
    return result;
  } finally {
    result.duration_ms = Math.round(performance.now() - started);
    await engine.dispose(session);
  }
}
