import { open, seal } from './aes-gcm';
import { contextBytes } from './encryption-context';
import type { KeyProvider } from './key-provider';

/** What is stored for one encrypted value: all three are safe to keep at rest. */
export interface EnvelopeRecord {
  /** `seal()` output of the value under the data key. */
  ciphertext: Buffer;
  /** The data key, wrapped by the provider's master key. */
  encryptedDataKey: Buffer;
  /** Which master key wrapped it. */
  keyId: string;
}

/**
 * Envelope encryption: a fresh data key per record from `provider`, AES-256-GCM over the value
 * with `context` as associated data, and the plaintext data key wiped after use.
 */
export async function encryptEnvelope(provider: KeyProvider, plaintext: string, context: Readonly<Record<string, string>>): Promise<EnvelopeRecord> {
  const key = await provider.generateDataKey(context);
  try {
    return { ciphertext: seal(key.plaintext, Buffer.from(plaintext, 'utf8'), contextBytes(context)), encryptedDataKey: key.encrypted, keyId: key.keyId };
  } finally {
    key.plaintext.fill(0);
  }
}

/** Reverses {@link encryptEnvelope}; fails when the record was moved to another context. */
export async function decryptEnvelope(
  provider: KeyProvider,
  record: Pick<EnvelopeRecord, 'ciphertext' | 'encryptedDataKey'>,
  context: Readonly<Record<string, string>>,
): Promise<string> {
  const key = await provider.decryptDataKey(record.encryptedDataKey, context);
  try {
    return open(key, record.ciphertext, contextBytes(context)).toString('utf8');
  } finally {
    key.fill(0);
  }
}
