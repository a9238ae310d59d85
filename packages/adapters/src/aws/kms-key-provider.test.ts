import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { decryptEnvelope, encryptEnvelope } from '@dbops/core/crypto';
import { mockClient } from 'aws-sdk-client-mock';
import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createKmsKeyProvider } from './kms-key-provider';

const KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const kms = mockClient(KMSClient);

describe('KMS key provider', () => {
  beforeEach(() => kms.reset());

  it('asks GenerateDataKey for an AES-256 key under the configured key with the encryption context', async () => {
    const plaintext = randomBytes(32);
    kms.on(GenerateDataKeyCommand).resolves({ Plaintext: plaintext, CiphertextBlob: Buffer.from('wrapped'), KeyId: KEY_ARN });
    const provider = createKmsKeyProvider('alias/dbops', new KMSClient({ region: 'eu-west-1' }));
    const key = await provider.generateDataKey({ connection_id: 'c1', user_id: 'u1' });
    expect(key.plaintext.equals(plaintext)).toBe(true);
    expect(key.encrypted.toString()).toBe('wrapped');
    expect(key.keyId).toBe(KEY_ARN);
    const calls = kms.commandCalls(GenerateDataKeyCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({ KeyId: 'alias/dbops', KeySpec: 'AES_256', EncryptionContext: { connection_id: 'c1', user_id: 'u1' } });
  });

  it('sends Decrypt with the blob, the key id and the same encryption context', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.alloc(32, 7) });
    const provider = createKmsKeyProvider(KEY_ARN, new KMSClient({ region: 'eu-west-1' }));
    const key = await provider.decryptDataKey(Buffer.from('wrapped'), { connection_id: 'c1', user_id: 'u1' });
    expect(key.equals(Buffer.alloc(32, 7))).toBe(true);
    const input = kms.commandCalls(DecryptCommand)[0]!.args[0].input;
    expect(Buffer.from(input.CiphertextBlob!).toString()).toBe('wrapped');
    expect(input.KeyId).toBe(KEY_ARN);
    expect(input.EncryptionContext).toEqual({ connection_id: 'c1', user_id: 'u1' });
  });

  it('round-trips an envelope, and KMS refusing the context makes decryption fail', async () => {
    const dataKey = randomBytes(32);
    kms.on(GenerateDataKeyCommand).resolves({ Plaintext: Buffer.from(dataKey), CiphertextBlob: Buffer.from('blob'), KeyId: KEY_ARN });
    kms.on(DecryptCommand, { EncryptionContext: { connection_id: 'c1', user_id: 'u1' } }).resolves({ Plaintext: Buffer.from(dataKey) });
    kms.on(DecryptCommand, { EncryptionContext: { connection_id: 'c2', user_id: 'u1' } }).rejects(new Error('InvalidCiphertextException'));
    const provider = createKmsKeyProvider(KEY_ARN, new KMSClient({ region: 'eu-west-1' }));
    const rec = await encryptEnvelope(provider, 'postgresql://u:p@h/db', { connection_id: 'c1', user_id: 'u1' });
    expect(rec.keyId).toBe(KEY_ARN);
    expect(await decryptEnvelope(provider, rec, { connection_id: 'c1', user_id: 'u1' })).toBe('postgresql://u:p@h/db');
    await expect(decryptEnvelope(provider, rec, { connection_id: 'c2', user_id: 'u1' })).rejects.toThrow();
  });
});
