import type { Container } from '@dbops/functions/runtime/container';
import { errorFields, logger } from '@dbops/functions/runtime/logger';
import { installMigrationQueue } from '@dbops/functions/runtime/ports/migration-queue';
import { InProcessMigrationQueue } from './in-process-migration-queue';

/** Gives the local runtime its migration queue: in process, consumed by the real executor handler. */
export function installInProcessMigrationQueue(container: Container): void {
  installMigrationQueue(
    container,
    new InProcessMigrationQueue({
      loadHandler: async () => (await import('@dbops/functions/executor/migration-executor')).handler,
      background: container.background,
      onDropped: (message, error) => logger.error('migration message dropped after its last delivery', { requestId: message.requestId, ...errorFields(error) }),
    }),
  );
}
