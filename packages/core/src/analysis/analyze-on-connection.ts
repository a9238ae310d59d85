import type { Embedder } from '../embeddings/embedder';
import { findRelevantDocumentChunks } from '../context/document-context';
import { getConnection } from '../connections/connection-service';
import { ensureSnapshot, type IntrospectionDeps } from '../introspection/introspect-connection';
import { rememberSnapshot } from '../introspection/snapshot-store';
import type { SecretStore } from '../secrets/secret-store';
import { analyzeMigrationDetailed } from './analyze-migration';
import { approvalSigningKey } from './approval/approval-key';
import { issueApprovalToken } from './approval/approval-token';
import { applyLiveChecksOnConnection } from './live-checks';
import { offerSafePlan } from './safe-plan/offer-safe-plan';

/** Kept back from the gateway's window for the answer after the safe plan's proof gave up. */
const SAFE_PLAN_ANSWER_MARGIN_MS = 5_000;
import { prewarmSandbox, type SandboxOptions } from './sandbox/run-sandbox';
import type { SchemaSnapshot } from '../introspection/schema-snapshot';
import { sandboxCacheOptions } from './sandbox/sandbox-cache';
import { sandboxRunSettings, sandboxServerSettings } from './sandbox/sandbox-server-settings';
import { phaseClock } from './sandbox/sandbox-run';
import { warmSandboxThread } from './sandbox/sandbox-threads';
import type { AnalysisReport } from './types';

/** What an analysis of a registered connection needs from its host process. */
export type AnalyzeOnConnectionDeps = IntrospectionDeps & { embedder: Embedder; secrets: SecretStore };

/**
 * The sandbox options of an analysis of this connection, `elapsedMs` into its request: the
 * run's deadline is inside the gateway's window from the request's start.
 */
function sandboxOptionsFor(deps: AnalyzeOnConnectionDeps, userId: string, connectionId: string, elapsedMs: number): SandboxOptions {
  const limits = sandboxRunSettings(deps.settings);
  const server = sandboxServerSettings(deps.settings);
  const run: SandboxOptions = {
    ...limits,
    deadlineMs: Math.max(1_000, limits.deadlineMs - elapsedMs),
    engine: deps.settings.sandbox.engine,
    ...(deps.settings.sandbox.pgDir ? { pgDir: deps.settings.sandbox.pgDir } : {}),
    ...(deps.settings.sandbox.pgSeedDir ? { pgSeedDir: deps.settings.sandbox.pgSeedDir } : {}),
    // Bounds, not a cache instance: they travel with the job to the sandbox thread.
    cacheBounds: sandboxCacheOptions(deps.settings.sandbox),
  };
  return server
    ? {
        ...run,
        server: {
          ...server,
          // The sandbox server's address is compared with this connection's before use.
          analysedDatabase: async () => {
            const c = await getConnection(deps, userId, connectionId);
            return { host: c.host, port: c.port, database: c.database_name };
          },
        },
      }
    : run;
}

/**
 * Builds the clone the next analysis of this snapshot needs (its template and a run identity
 * on the embedded engine, its image on PGlite) right after an introspection, so the first
 * analysis of a new connection finds it ready (issue #34). Only in a long-lived process (`local`
 * mode): a Lambda's work after its answer is frozen, and the analysis runs in another function.
 * An empty migration through the sandbox builds exactly what a real one would look up.
 */
export async function prewarmAnalysis(deps: AnalyzeOnConnectionDeps, input: { userId: string; connectionId: string; snapshot: SchemaSnapshot }): Promise<void> {
  if (deps.settings.mode !== 'local' || !deps.settings.sandbox.prewarm) return;
  // After the introspection's answer has gone: what follows is CPU work of tens of ms.
  await new Promise((resolve) => setImmediate(resolve));
  // The instance the analyses of this snapshot will read (`ensureSnapshot(..., 'shared')`), so
  // the clone's DDL and cache key computed here for it are found again by the first analysis.
  const snapshot = rememberSnapshot(input.snapshot);
  await prewarmSandbox(snapshot, sandboxOptionsFor(deps, input.userId, input.connectionId, 0));
}

/**
 * `POST /connections/{id}/migrations/analyze` in one call: the connection's current snapshot
 * (introspecting first when it has none or an outdated one), the analysis with its sandbox
 * (the configured sandbox server checked against this very connection), the connection's
 * business documents for the narrative, the read-only preflight and lock timing on the target
 * (`live-checks.ts`), and the approval token when the sandbox and the preflight passed.
 */
export async function analyzeOnConnection(
  deps: AnalyzeOnConnectionDeps,
  input: { userId: string; connectionId: string; sql: string },
  /** Filled with the wall-clock time of each phase (ms) when given: for the debug log and the benches. */
  phases?: Array<[string, number]>,
): Promise<AnalysisReport> {
  const { userId, connectionId, sql } = input;
  const started = Date.now();
  const { mark } = phaseClock(performance.now(), phases);
  const limits = sandboxRunSettings(deps.settings);
  // The thread's start overlaps the snapshot read instead of eating into the sandbox's deadline.
  if (deps.settings.sandbox.engine !== 'embedded') warmSandboxThread({ maxThreads: limits.maxThreads ?? 2 });
  // The proof of a safe plan is the one optional part: it gives up before the gateway's window closes.
  const proofBy = Date.now() + deps.settings.gatewayTimeoutSeconds * 1000 - SAFE_PLAN_ANSWER_MARGIN_MS;
  // Shared and frozen: the analysis only reads it, and the clone's DDL and cache key derived
  // from it are computed once per snapshot, not once per request.
  const snapshot = await ensureSnapshot(deps, userId, connectionId, 'shared');
  mark('snapshot');
  const sandbox = sandboxOptionsFor(deps, userId, connectionId, Date.now() - started);
  const analysis = await analyzeMigrationDetailed(sql, snapshot, {
    connectionId,
    sandbox,
    findDocuments: ({ query, tableNames }) => findRelevantDocumentChunks(deps.store, deps.embedder, { userId, connectionId, query, tableNames, limit: 5 }),
  });
  for (const [name, ms] of analysis.sandboxPhases) phases?.push([`sandbox: ${name}`, ms]);
  mark('analysis with its sandbox run');
  // The data preflight and calibrated lock times on the target itself, on the statements and
  // facts parsed above: a statement that would fail on the live rows, or a check that could not
  // finish, leaves the report without a token.
  await applyLiveChecksOnConnection(
    deps,
    { userId, connectionId, analysis },
    { sandboxWithoutRows: () => analysis.rerunSandboxProvingRollback({ ...sandbox, rowsPerTable: 0 }) },
  );
  mark('live checks on the target');
  const report = analysis.report;
  if (report.sandbox_result.passed) {
    const secret = await approvalSigningKey(deps.secrets);
    const issue = (text: string) => issueApprovalToken({ userId, connectionId, sql: text }, { secret, now: deps.clock.now() }).token;
    report.approval_token = issue(sql);
    // A migration that blocks writes for long gets a rewrite that does not, once the sandbox proved it equivalent.
    const batching = { size: deps.settings.safePlan.batchSize, pauseMs: deps.settings.safePlan.batchPauseMs };
    Object.assign(
      report,
      await offerSafePlan({
        analysis,
        snapshot,
        connectionId,
        sandbox,
        batching,
        largeTableRows: deps.settings.safePlan.minRows,
        proofBy,
        issueToken: async (text) => issue(text),
      }),
    );
    mark('token and safe plan');
  }
  return report;
}
