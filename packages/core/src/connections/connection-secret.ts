import type { KeyProvider } from '../crypto/key-provider';
import { decryptEnvelope, encryptEnvelope, type EnvelopeRecord } from '../crypto/envelope';

/**
 * The encryption context of a stored connection string: the record's id and owner, so a
 * ciphertext copied to another row or user fails to decrypt.
 */
export const connectionSecretContext = (connectionId: string, userId: string): Record<string, string> => ({
  purpose: 'dbops-connection-string',
  connection_id: connectionId,
  user_id: userId,
});

export const encryptConnectionString = (kp: KeyProvider, connectionId: string, userId: string, plaintext: string): Promise<EnvelopeRecord> =>
  encryptEnvelope(kp, plaintext, connectionSecretContext(connectionId, userId));

export const decryptConnectionString = (
  kp: KeyProvider,
  connectionId: string,
  userId: string,
  record: Pick<EnvelopeRecord, 'ciphertext' | 'encryptedDataKey'>,
): Promise<string> => decryptEnvelope(kp, record, connectionSecretContext(connectionId, userId));
