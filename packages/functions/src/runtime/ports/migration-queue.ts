import { AppError } from '@dbops/core/errors';
import type { MigrationQueue } from '@dbops/core/queue';
import { memoPer } from '@dbops/core/util';
import type { Container } from '../container';

const inProcess = new WeakMap<Container, MigrationQueue>();

/** The local runtime installs its in-process queue (which calls the executor handler) here. */
export function installMigrationQueue(container: Container, queue: MigrationQueue): void {
  inProcess.set(container, queue);
}

const sqsQueue = memoPer<Container, MigrationQueue>((c) => {
  const url = c.settings.migrationQueueUrl as string;
  // Loaded lazily so that handlers which never enqueue do not pay for the AWS SDK.
  const queue = import('@dbops/adapters/aws/sqs-migration-queue').then((m) => m.createSqsMigrationQueue(url));
  return { name: 'sqs', enqueue: async (message) => (await queue).enqueue(message) };
});

const unconfigured: MigrationQueue = {
  name: 'unconfigured',
  enqueue: async () => {
    throw new AppError('SERVICE_UNAVAILABLE', 'No migration queue is configured (DBOPS_MIGRATION_QUEUE_URL).');
  },
};

/**
 * The migration queue of this process: SQS when `DBOPS_MIGRATION_QUEUE_URL` is set (cloud),
 * otherwise the in-process queue the local runtime installed. A Lambda without the variable
 * cannot run migrations (its process freezes after the response), so it fails loudly.
 */
export function getMigrationQueue(container: Container): MigrationQueue {
  if (container.settings.migrationQueueUrl) return sqsQueue(container);
  return inProcess.get(container) ?? unconfigured;
}
