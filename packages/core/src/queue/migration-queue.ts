/** What the execute endpoint hands to the executor: only the request id; the row holds the rest. */
export interface MigrationMessage {
  requestId: string;
}

/**
 * Port: delivers a migration request to the executor, at least once. Cloud: an SQS queue
 * feeding the executor Lambda. Local: an in-process queue that calls the same Lambda handler.
 * Delivery may repeat, so the executor only ever starts a request that is still `pending`.
 */
export interface MigrationQueue {
  readonly name: string;
  enqueue(message: MigrationMessage): Promise<void>;
}

/** Parses a queue message body; undefined when it is not one of ours. */
export function parseMigrationMessage(body: string): MigrationMessage | undefined {
  try {
    const value = JSON.parse(body) as unknown;
    if (value !== null && typeof value === 'object' && typeof (value as { requestId?: unknown }).requestId === 'string') {
      return { requestId: (value as { requestId: string }).requestId };
    }
  } catch {
    // not JSON
  }
  return undefined;
}

export const serializeMigrationMessage = (message: MigrationMessage): string => JSON.stringify({ requestId: message.requestId });
