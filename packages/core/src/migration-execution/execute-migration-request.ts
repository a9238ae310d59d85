import type pg from 'pg';
import { pgQueryable } from '../store/pg-store';
import type { ConnectionTarget } from '../connections/connection-target';
import { isAppError } from '../errors/app-error';
import type { CoreDeps } from '../deps';
import { executionSettings } from './execution-settings';
import { type PlannedStatement, planMigration } from './migration-plan';
import { EXECUTOR_CODES, emptyFailure } from './migration-outcome';
import { endOrphans, executorApplicationName, observePlan } from './lost-run-reconcile';
import { storeBatchLedger } from './batch-ledger';
import { HandOffRequested, OwnershipLost } from './run-failures';
import {
  type ClaimedRequest,
  claimRequest,
  expireStaleRequests,
  finishRequest,
  handOffRequest,
  recordApplied,
  recordCatalogBefore,
  renewLease,
  resumeLostRequests,
  setProgress,
} from './request-store';
import { type RunOutcome, runMigration } from './run-migration';

/** What the executor needs besides the core deps: how to reach the user's database. */
export interface ExecutorPorts {
  /** The request's connection (decrypted), or a thrown AppError (e.g. deactivated connection). */
  loadTarget(claim: ClaimedRequest): Promise<ConnectionTarget>;
  /** A connected client to the target (TLS per sslmode); a thrown AppError says why it failed. */
  connect(target: ConnectionTarget): Promise<pg.Client>;
  /** Runs after statements were applied (re-introspection); failures are logged, never fatal. */
  afterApplied?(claim: ClaimedRequest): Promise<void>;
  /**
   * Starts a new executor run for the request (a queue message): with it, a batched step near
   * the executor's time limit hands the request on instead of failing (`handOffRequest`).
   */
  requeue?(requestId: string): Promise<void>;
  /** Where problems that do not belong in the request go. */
  log?(message: string, fields: Record<string, unknown>): void;
}

export type ExecutionDisposition = 'ignored' | 'completed' | 'failed' | 'handed_off';

/**
 * Runs one request to its end, at most once: claims it (`pending -> executing`, or does
 * nothing when it is not pending), keeps a lease alive with heartbeats, runs the migration on
 * the user's database and records `completed` or `failed`. Throws only when the state store
 * itself failed, so the queue redelivers; the redelivery then finds the request not pending.
 * A request whose executor was lost inside a batched step is resumed instead (a redelivered
 * message of the lost executor finds it so): the lost executor's sessions are ended first, then
 * the run goes on from the last committed batch (`run-batched-step.ts`).
 */
export async function executeMigrationRequest(
  deps: CoreDeps,
  ports: ExecutorPorts,
  requestId: string,
  options: { remainingMs?: () => number } = {},
): Promise<ExecutionDisposition> {
  const settings = executionSettings(deps.settings);
  const now = () => deps.clock.now();
  await resumeLostRequests(deps.store, now(), { requestId });
  await expireStaleRequests(deps.store, now(), settings.pendingTimeoutMs);
  const claim = await claimRequest(deps.store, requestId, now(), settings.leaseMs);
  if (!claim) return 'ignored';

  let client: pg.Client | undefined;
  let leaseLost = false;
  const heartbeat = setInterval(() => {
    renewLease(deps.store, claim, now(), settings.leaseMs)
      .then((owned) => {
        if (owned || leaseLost) return;
        // Someone failed the request as lost: stop, so the open transaction rolls back.
        leaseLost = true;
        void client?.end().catch(() => undefined);
      })
      .catch((error: unknown) => ports.log?.('lease renewal failed', { requestId, error: String(error) }));
  }, settings.heartbeatMs);
  heartbeat.unref?.();

  let outcome: RunOutcome;
  const applied: number[] = claim.resume ? claim.resume.applied.map((a) => a.statement_index) : [];
  try {
    try {
      const target = await ports.loadTarget(claim);
      client = await ports.connect(target);
    } catch (error) {
      const message = isAppError(error) ? error.message : 'Could not connect to the database.';
      outcome = {
        status: 'failed',
        error: emptyFailure(EXECUTOR_CODES.CONNECTION_FAILED, message, 'Check the connection, then execute again with a new analysis.'),
      };
      await finishRequest(deps.store, claim, outcome, now());
      return 'failed';
    }
    let byIndex = new Map<number, PlannedStatement>();
    try {
      // Named after the request, so that a later check can find this session if the executor is lost.
      const version = Number(
        (
          await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v, set_config('application_name', $1, false)", [
            executorApplicationName(claim.requestId),
          ])
        ).rows[0]?.v ?? 0,
      );
      const plan = await planMigration(claim.sql, version);
      byIndex = new Map(plan.map((s) => [s.index, s]));
      if (claim.resume) {
        // The lost run's batch in flight must be final before its status is asked: no session of it may commit later.
        await endOrphans(client, claim.requestId);
      } else {
        // The catalog before the run, for the statements whose effect it shows: the record of a
        // lost run is rebuilt by comparing with it (lost-run-reconcile.ts).
        await recordCatalogBefore(deps.store, claim, await observePlan(pgQueryable(client), plan));
      }
      outcome = await runMigration({
        client,
        plan,
        settings,
        ledger: storeBatchLedger(deps.store, claim, { now, leaseMs: settings.leaseMs }),
        ...(claim.resume ? { resume: { applied: new Set(applied) } } : {}),
        ...(options.remainingMs ? { remainingMs: options.remainingMs, canHandOff: ports.requeue !== undefined } : {}),
        onProgress: (text, index) => setProgress(deps.store, claim, text, index, now(), settings.leaseMs),
        onApplied: async (indexes) => {
          applied.push(...indexes);
          await recordApplied(
            deps.store,
            claim,
            indexes.map((i) => ({ statement_index: i, sql: byIndex.get(i)?.sql ?? '', transactional: byIndex.get(i)?.mode === 'transactional' })),
          );
        },
      });
    } catch (error) {
      if (leaseLost || error instanceof OwnershipLost) return 'failed';
      if (error instanceof HandOffRequested) {
        // Our session ends (finally) before the next run can claim the request, and the ledger
        // holds every batch committed so far: the next run goes on from there.
        await client.end().catch(() => undefined);
        client = undefined;
        if (!(await handOffRequest(deps.store, claim, now()))) return 'failed';
        // A failed enqueue throws: the queue then redelivers this run's own message, which finds
        // the request pending and claims it.
        await ports.requeue!(claim.requestId);
        return 'handed_off';
      }
      // Not a statement's failure (the state store, most likely): details go to the log only.
      ports.log?.('migration run failed outside its statements', { requestId, error: String(error) });
      const message = isAppError(error) ? error.message : 'The executor failed outside the migration statements; any open transaction was rolled back.';
      const failure = emptyFailure(EXECUTOR_CODES.EXECUTOR_ERROR, message);
      for (const i of applied) {
        const s = byIndex.get(i);
        if (s?.mode === 'transactional') failure.committed_transactional.push(i);
        else failure.applied_non_transactional.push({ statement_index: i, sql: s?.sql ?? '' });
      }
      outcome = { status: 'failed', error: failure };
    }
    // Re-introspect before the request reads `completed`, so an analysis started right after
    // the poll sees the new schema. A failure here never fails the migration.
    if (applied.length > 0 && ports.afterApplied && !leaseLost) {
      await setProgress(deps.store, claim, 're-introspecting the schema', null, now(), settings.leaseMs);
      await ports.afterApplied(claim).catch((error: unknown) => ports.log?.('re-introspection after migration failed', { requestId, error: String(error) }));
    }
    const recorded = await finishRequest(deps.store, claim, outcome, now());
    return recorded ? outcome.status : 'failed';
  } finally {
    clearInterval(heartbeat);
    await client?.end().catch(() => undefined);
  }
}
