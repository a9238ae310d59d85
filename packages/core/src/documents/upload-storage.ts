/** Where one file of a batch is to be sent, as the client must send it. */
export interface UploadTarget {
  /** `PUT` the raw bytes (local runtime) or `POST` a multipart form (S3 presigned POST). */
  method: 'PUT' | 'POST';
  url: string;
  /** Headers the client must send (PUT). */
  headers: Record<string, string>;
  /** Form fields to send before the `file` field (POST). */
  fields: Record<string, string>;
}

/** One slot as the storage needs it to sign or serve an upload. */
export interface SlotSpec {
  key: string;
  /** Random, single-use; the local runtime's upload URL carries it. */
  token: string;
  sizeBytes: number;
  contentType: string;
  expiresAt: Date;
}

/**
 * Port: where upload slots put files before ingestion. Cloud: an S3 bucket with presigned POSTs
 * whose policy fixes key, exact size and content type (S3 enforces them where the bytes land).
 * Local: files under `$DBOPS_HOME/uploads`, written by the local runtime's upload endpoint,
 * which enforces the same and sniffs the content while it streams.
 */
export interface UploadStorage {
  readonly name: string;
  createTarget(slot: SlotSpec): Promise<UploadTarget>;
  /** Whether a file was uploaded under `key` (S3: HeadObject). */
  exists(key: string): Promise<boolean>;
  /** The stored bytes, or undefined when nothing was uploaded under `key`. */
  read(key: string): Promise<Uint8Array | undefined>;
  /** Deletes objects; missing ones are ignored. */
  remove(keys: readonly string[]): Promise<void>;
}
