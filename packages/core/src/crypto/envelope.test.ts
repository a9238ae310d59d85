import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptEnvelope, encryptEnvelope } from './envelope';
import { LocalKeyFileProvider, masterKeyPath } from './local-key-file-provider';

describe('envelope encryption with the local key file', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'dbops-keys-'));
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  const ctx = { connection_id: 'c1', user_id: 'u1' };

  it('creates a 256-bit master key file with mode 0600 and reuses it', async () => {
    const a = new LocalKeyFileProvider(home);
    const rec = await encryptEnvelope(a, 'postgresql://app:s3cret@db/x', ctx);
    const file = masterKeyPath(home);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).toHaveLength(32);
    // A second provider (a restart) reads the same key and decrypts.
    expect(await decryptEnvelope(new LocalKeyFileProvider(home), rec, ctx)).toBe('postgresql://app:s3cret@db/x');
    expect(rec.keyId).toMatch(/^local:[0-9a-f]{16}$/);
  });

  it('uses a fresh data key per record and never stores the plaintext', async () => {
    const p = new LocalKeyFileProvider(home);
    const r1 = await encryptEnvelope(p, 'same text', ctx);
    const r2 = await encryptEnvelope(p, 'same text', ctx);
    expect(r1.encryptedDataKey.equals(r2.encryptedDataKey)).toBe(false);
    expect(r1.ciphertext.equals(r2.ciphertext)).toBe(false);
    expect(r1.ciphertext.includes(Buffer.from('same text'))).toBe(false);
  });

  it('fails when the record is moved to another connection or owner, or tampered with', async () => {
    const p = new LocalKeyFileProvider(home);
    const rec = await encryptEnvelope(p, 'secret', ctx);
    await expect(decryptEnvelope(p, rec, { ...ctx, connection_id: 'c2' })).rejects.toThrow();
    await expect(decryptEnvelope(p, rec, { ...ctx, user_id: 'u2' })).rejects.toThrow();
    const tampered = Buffer.from(rec.ciphertext);
    tampered[tampered.length - 1]! ^= 1;
    await expect(decryptEnvelope(p, { ...rec, ciphertext: tampered }, ctx)).rejects.toThrow();
    // Context order does not matter.
    expect(await decryptEnvelope(p, rec, { user_id: 'u1', connection_id: 'c1' })).toBe('secret');
  });

  it('fails with another master key', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'dbops-keys-'));
    try {
      const rec = await encryptEnvelope(new LocalKeyFileProvider(home), 'secret', ctx);
      await expect(decryptEnvelope(new LocalKeyFileProvider(other), rec, ctx)).rejects.toThrow();
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
