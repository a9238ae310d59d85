import type { ServiceSettings } from '../config';
import type { CoreDeps } from '../deps';
import type { KeyProvider } from '../crypto/key-provider';
import { connectPg } from '../connections/connect-pg';
import { loadConnectionTarget } from '../connections/load-connection-target';
import type { ConnectionTarget } from '../connections/connection-target';
import { AppError } from '../errors/app-error';
import { type ExecuteRequest, type ExecuteResult, executeSql } from './execute-sql';
import { acquireSession, type SessionPoolSettings } from './session-pool';
import { defaultStatementLimitMs } from './time-budget';

/** Shown in the user's `pg_stat_activity.application_name`, so DBAs can tell our sessions apart. */
export const EXECUTE_APPLICATION_NAME = 'dbops-execute';

/** Pool settings: `DBOPS_EXECUTE_POOL_SIZE` sessions per connection (default 10, 0 = a new session per request). */
export function executePoolSettings(settings: ServiceSettings): SessionPoolSettings {
  // Sessions open with the limit a fresh request gets (time-budget.ts), so it needs no SET.
  return {
    maxPerConnection: settings.executePoolSize,
    idleMs: 30_000,
    applicationName: EXECUTE_APPLICATION_NAME,
    defaultStatementTimeoutMs: defaultStatementLimitMs(settings.gatewayTimeoutSeconds),
  };
}

/** How long a terminate waits to see the backend gone (it aborts its transaction on the way out). */
const TERMINATE_WAIT_MS = 1500;

/**
 * Cancels or terminates backend `pid` from a second session with the same credentials (a role
 * may signal its own backends). A terminate returns once the backend is gone (or after
 * {@link TERMINATE_WAIT_MS}), so the caller answers only after its transaction was aborted.
 */
async function signalBackend(target: ConnectionTarget, pid: number, terminate: boolean): Promise<void> {
  const { client } = await connectPg(target, { applicationName: `${EXECUTE_APPLICATION_NAME}-cancel`, connectTimeoutMs: 5000 });
  try {
    if (!terminate) {
      await client.query('SELECT pg_catalog.pg_cancel_backend($1)', [pid]);
      return;
    }
    await client.query('SELECT pg_catalog.pg_terminate_backend($1)', [pid]);
    const until = Date.now() + TERMINATE_WAIT_MS;
    while (Date.now() < until) {
      const alive = await client.query('SELECT 1 FROM pg_catalog.pg_stat_activity WHERE pid = $1', [pid]);
      if (alive.rowCount === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Errors after which the session is still in a known state and may serve another request. */
const keepsSession = (e: unknown): boolean => e instanceof AppError && (e.code === 'SQL_ERROR' || e.code === 'GUARDRAIL_VIOLATION');

/**
 * POST /execute's work: the caller's connection (NOT_FOUND for another user's), a session,
 * the request, and the session cleaned (or closed after a timeout or a lost connection).
 */
export async function executeOnConnection(
  deps: CoreDeps & { keyProvider: KeyProvider },
  userId: string,
  connectionId: string,
  req: ExecuteRequest,
): Promise<ExecuteResult> {
  const target = await loadConnectionTarget(deps, userId, connectionId);
  const settings = executePoolSettings(deps.settings);
  const options = { cancelBackend: (pid: number, terminate: boolean) => signalBackend(target, pid, terminate) };

  if (settings.maxPerConnection === 0) {
    const { client } = await connectPg(target, { applicationName: EXECUTE_APPLICATION_NAME, statementTimeoutMs: Math.round(req.timeoutSeconds * 1000) });
    try {
      return await executeSql(client, req, options);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  const session = await acquireSession(target, settings);
  let reusable = true;
  try {
    const pooled = session.defaults ? { sessionDefaults: session.defaults, rollbackOnRelease: true, catalogVerdicts: session.catalogVerdicts } : {};
    return await executeSql(session.client, req, { ...options, ...pooled });
  } catch (error) {
    reusable = keepsSession(error);
    throw error;
  } finally {
    // Always reset, strict agents included: a function hidden in a view can still take a
    // session-level advisory lock, which survives the rollback. The reset (and a strict agent's
    // rollback) runs after the answer is sent: the session goes back to the pool only once it
    // is done, so no other request sees what this one left, and the answer does not wait for
    // that round trip. release() never throws (a session it cannot reset is closed).
    void session.release(reusable);
  }
}
