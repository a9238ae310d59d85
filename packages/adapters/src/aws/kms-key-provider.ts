import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import type { DataKey, KeyProvider } from '@dbops/core/crypto';

/**
 * AWS KMS behind the KeyProvider port: GenerateDataKey (AES_256) for each record and Decrypt
 * to unwrap, both with the record's encryption context, so CloudTrail shows which connection a
 * key belongs to and a wrapped key moved to another record cannot be unwrapped.
 */
export function createKmsKeyProvider(keyId: string, client: KMSClient = new KMSClient({})): KeyProvider {
  return {
    name: 'aws-kms',
    async generateDataKey(context): Promise<DataKey> {
      const res = await client.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: { ...context } }));
      if (!res.Plaintext || !res.CiphertextBlob) throw new Error('KMS GenerateDataKey returned no key');
      return { plaintext: Buffer.from(res.Plaintext), encrypted: Buffer.from(res.CiphertextBlob), keyId: res.KeyId ?? keyId };
    },
    async decryptDataKey(encrypted, context): Promise<Buffer> {
      // KeyId pins the master key, so a blob wrapped by a different key is refused by KMS.
      const res = await client.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: encrypted, EncryptionContext: { ...context } }));
      if (!res.Plaintext) throw new Error('KMS Decrypt returned no plaintext');
      return Buffer.from(res.Plaintext);
    },
  };
}
