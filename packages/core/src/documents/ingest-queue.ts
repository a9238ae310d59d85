/** What confirming a batch hands to ingestion: only the batch id; the rows hold the rest. */
export interface DocumentBatchMessage {
  batchId: string;
}

/**
 * Port: delivers a confirmed batch to ingestion, at least once. Cloud: an SQS queue feeding the
 * ingestion Lambda. Local: an in-process queue calling the same handler. Ingestion is
 * idempotent per batch (a completed or failed batch is left alone), so delivery may repeat.
 */
export interface IngestQueue {
  readonly name: string;
  enqueue(message: DocumentBatchMessage): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parses a queue message body; undefined when it is not one of ours. */
export function parseDocumentBatchMessage(body: string): DocumentBatchMessage | undefined {
  try {
    const value = JSON.parse(body) as { batchId?: unknown } | null;
    if (value && typeof value.batchId === 'string' && UUID.test(value.batchId)) return { batchId: value.batchId };
  } catch {
    // not JSON
  }
  return undefined;
}

export const serializeDocumentBatchMessage = (message: DocumentBatchMessage): string => JSON.stringify({ batchId: message.batchId });
