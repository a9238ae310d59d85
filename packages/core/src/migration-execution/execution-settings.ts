/** Settings of migration execution; every one has a documented default (docs/migration-execution.md). */
export interface ExecutionSettings {
  /** `lock_timeout` of each statement on the user's database (`DBOPS_MIGRATION_LOCK_TIMEOUT_MS`, default 5000). */
  lockTimeoutMs: number;
  /** `statement_timeout` of each statement (`DBOPS_MIGRATION_STATEMENT_TIMEOUT_MS`, default 300000 = 5 min). */
  statementTimeoutMs: number;
  /** Extra attempts after a lock timeout (`DBOPS_MIGRATION_LOCK_RETRIES`, default 3). */
  lockRetries: number;
  /** First backoff before a lock retry; doubles each time, full jitter (`DBOPS_MIGRATION_LOCK_RETRY_BASE_MS`, default 500). */
  lockRetryBaseMs: number;
  /** Cap of one backoff (`DBOPS_MIGRATION_LOCK_RETRY_MAX_MS`, default 8000). */
  lockRetryMaxMs: number;
  /** How long an executor owns a running request without a heartbeat (`DBOPS_MIGRATION_LEASE_SECONDS`, default 60). */
  leaseMs: number;
  /** How often the executor renews its lease (`DBOPS_MIGRATION_HEARTBEAT_SECONDS`, default lease / 4). */
  heartbeatMs: number;
  /** A request still `pending` after this long is failed as never started (`DBOPS_MIGRATION_PENDING_TIMEOUT_SECONDS`, default 900). */
  pendingTimeoutMs: number;
}

const num = (env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
};

/** Reads {@link ExecutionSettings} from the environment. */
export function executionSettings(env: Readonly<Record<string, string | undefined>>): ExecutionSettings {
  const leaseMs = num(env, 'DBOPS_MIGRATION_LEASE_SECONDS', 60, 1) * 1000;
  return {
    lockTimeoutMs: num(env, 'DBOPS_MIGRATION_LOCK_TIMEOUT_MS', 5000, 1),
    statementTimeoutMs: num(env, 'DBOPS_MIGRATION_STATEMENT_TIMEOUT_MS', 300_000, 1),
    lockRetries: num(env, 'DBOPS_MIGRATION_LOCK_RETRIES', 3, 0),
    lockRetryBaseMs: num(env, 'DBOPS_MIGRATION_LOCK_RETRY_BASE_MS', 500, 0),
    lockRetryMaxMs: num(env, 'DBOPS_MIGRATION_LOCK_RETRY_MAX_MS', 8000, 0),
    leaseMs,
    heartbeatMs: num(env, 'DBOPS_MIGRATION_HEARTBEAT_SECONDS', leaseMs / 4000, 0.1) * 1000,
    pendingTimeoutMs: num(env, 'DBOPS_MIGRATION_PENDING_TIMEOUT_SECONDS', 900, 1) * 1000,
  };
}

/** Full-jitter exponential backoff before lock retry `attempt` (1-based). */
export function lockBackoffMs(settings: Pick<ExecutionSettings, 'lockRetryBaseMs' | 'lockRetryMaxMs'>, attempt: number, random = Math.random): number {
  const ceiling = Math.min(settings.lockRetryMaxMs, settings.lockRetryBaseMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}
