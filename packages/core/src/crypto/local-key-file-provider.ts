import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { open, seal } from './aes-gcm';
import { contextBytes } from './encryption-context';
import type { DataKey, KeyProvider } from './key-provider';

/** Where the local master key lives under DBOPS_HOME. */
export const masterKeyPath = (home: string): string => path.join(home, 'keys', 'master.key');

/**
 * Key provider of the embedded runtime: a 256-bit master key in `<home>/keys/master.key`
 * (base64, mode 0600, created on first use) wraps per-record data keys with AES-256-GCM,
 * the encryption context as associated data, just as KMS would.
 */
export class LocalKeyFileProvider implements KeyProvider {
  readonly name = 'local-key-file';
  readonly #file: string;
  #key: Promise<{ key: Buffer; id: string }> | undefined;

  constructor(home: string) {
    this.#file = masterKeyPath(home);
  }

  async generateDataKey(context: Readonly<Record<string, string>>): Promise<DataKey> {
    const master = await this.#master();
    const plaintext = randomBytes(32);
    return { plaintext, encrypted: seal(master.key, plaintext, contextBytes(context)), keyId: master.id };
  }

  async decryptDataKey(encrypted: Buffer, context: Readonly<Record<string, string>>): Promise<Buffer> {
    const master = await this.#master();
    return open(master.key, encrypted, contextBytes(context));
  }

  #master(): Promise<{ key: Buffer; id: string }> {
    this.#key ??= this.#loadOrCreate().catch((error: unknown) => {
      this.#key = undefined;
      throw error;
    });
    return this.#key;
  }

  async #loadOrCreate(): Promise<{ key: Buffer; id: string }> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(path.dirname(this.#file), { recursive: true, mode: 0o700 });
      try {
        // 'wx': two processes starting at once must not overwrite each other's key.
        await writeFile(this.#file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
        await chmod(this.#file, 0o600); // the umask may have narrowed or widened the mode
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      text = await readFile(this.#file, 'utf8');
    }
    const key = Buffer.from(text.trim(), 'base64');
    if (key.length !== 32) throw new Error(`master key file ${this.#file} does not hold a 256-bit base64 key`);
    // The id names the key without revealing it, so records say which master key wrapped them.
    return { key, id: `local:${createHash('sha256').update(key).digest('hex').slice(0, 16)}` };
  }
}
