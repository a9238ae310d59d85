import type { MigrationQueue } from '../queue/migration-queue';
import type { Store } from '../store/store';
import { expireStaleRequests, resumeLostRequests } from './request-store';

/**
 * What every execute, poll, listing and executor run does with requests whose executor is gone:
 * those lost inside a batched step go back to `pending` and are enqueued again, so the next
 * executor resumes them from their last committed batch; the other lost ones, and requests no
 * executor ever took, are failed. An enqueue that fails is logged: the request then waits for
 * the queue's own redelivery, the local runtime's start, or its pending timeout.
 */
export async function sweepLostRequests(
  store: Store,
  input: {
    now: Date;
    pendingTimeoutMs: number;
    scope: { connectionId?: string; requestId?: string };
    queue: MigrationQueue;
    log?(message: string, fields: Record<string, unknown>): void;
  },
): Promise<void> {
  for (const requestId of await resumeLostRequests(store, input.now, input.scope)) {
    await input.queue
      .enqueue({ requestId })
      .catch((error: unknown) => input.log?.('could not enqueue a resumed migration', { requestId, error: String(error) }));
  }
  await expireStaleRequests(store, input.now, input.pendingTimeoutMs, input.scope);
}
