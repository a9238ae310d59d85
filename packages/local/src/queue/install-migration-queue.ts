import type { Container } from '@dbops/functions/runtime';
import { errorFields, logger } from '@dbops/functions/runtime';
import { installMigrationQueue } from '@dbops/functions/runtime';
import { InProcessMigrationQueue } from './in-process-migration-queue';

/**
 * Gives the local runtime its migration queue: in process, consumed by the real executor
 * handler. Requests left `pending` by a previous run of the process (whose in-memory queue was
 * lost) are enqueued again; only one delivery can ever claim a request, so this is safe even
 * when several processes share a state database.
 */
export function installInProcessMigrationQueue(container: Container): void {
  const queue = new InProcessMigrationQueue({
    loadHandler: async () => (await import('@dbops/functions/executor/migration-executor')).handler,
    background: container.background,
    onDropped: (message, error) => logger.error('migration message dropped after its last delivery', { requestId: message.requestId, ...errorFields(error) }),
  });
  installMigrationQueue(container, queue);

  const resume = container.store
    .query<{ id: string }>(`SELECT id FROM migration_requests WHERE status = 'pending' ORDER BY created_at`)
    .then(async (res) => {
      for (const row of res.rows) await queue.enqueue({ requestId: row.id });
    })
    .catch((error: unknown) => logger.warn('could not resume pending migrations', errorFields(error)));
  container.background.add(resume);
  void resume.finally(() => container.background.delete(resume));
}
