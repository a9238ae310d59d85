/** A data key for envelope encryption: use `plaintext` once, store `encrypted` beside the ciphertext. */
export interface DataKey {
  plaintext: Buffer;
  encrypted: Buffer;
  /** Which master key wrapped it (KMS key ARN, or the local key file's id). */
  keyId: string;
}

/**
 * Port: wraps and unwraps per-record data keys. Cloud: AWS KMS (GenerateDataKey / Decrypt).
 * Local: a master key file under DBOPS_HOME. `context` is bound to the data key (KMS
 * encryption context / AES-GCM associated data), so a key copied to another record fails.
 */
export interface KeyProvider {
  readonly name: string;
  generateDataKey(context: Readonly<Record<string, string>>): Promise<DataKey>;
  decryptDataKey(encrypted: Buffer, context: Readonly<Record<string, string>>): Promise<Buffer>;
}
