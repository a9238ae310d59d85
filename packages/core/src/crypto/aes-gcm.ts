import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Format byte in front of every sealed blob, so the layout can change later. */
const VERSION = 1;

/** AES-256-GCM: `version | iv | tag | ciphertext` in one buffer, `aad` bound but not stored. */
export function seal(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

/** Reverses {@link seal}; throws when the key, the associated data or the bytes differ. */
export function open(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) throw new Error('sealed data is malformed');
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
}
