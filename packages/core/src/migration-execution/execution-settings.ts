import type { ExecutionSettings, ServiceSettings } from '../config';

export type { ExecutionSettings };

/** Settings of migration execution; every one has a documented default (docs/migration-execution.md). */
export const executionSettings = (settings: ServiceSettings): ExecutionSettings => settings.migrationExecution;

/** Full-jitter exponential backoff before lock retry `attempt` (1-based). */
export function lockBackoffMs(settings: Pick<ExecutionSettings, 'lockRetryBaseMs' | 'lockRetryMaxMs'>, attempt: number, random = Math.random): number {
  const ceiling = Math.min(settings.lockRetryMaxMs, settings.lockRetryBaseMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}
