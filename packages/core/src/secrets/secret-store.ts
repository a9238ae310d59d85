import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Port: named secrets (approval-token signing key, Stripe keys, the shared instance's admin
 * connection string). Cloud: AWS Secrets Manager. Local: environment variables, then files
 * under `<home>/secrets`.
 */
export interface SecretStore {
  /** The secret's value, or undefined when it is not set. */
  get(name: string): Promise<string | undefined>;
  /** The secret's value, creating a random one (32 bytes, base64url) on first use when missing. */
  getOrCreateRandom(name: string): Promise<string>;
}

const envName = (name: string): string => `DBOPS_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;

/**
 * Local secrets: `DBOPS_SECRET_<NAME>` in the environment wins; otherwise `<home>/secrets/<name>`
 * (created with mode 0600 by {@link SecretStore.getOrCreateRandom}).
 */
export class LocalSecretStore implements SecretStore {
  readonly #dir: string;
  readonly #variables: Readonly<Record<string, string | undefined>>;

  /** `variables`: the `DBOPS_SECRET_*` variables, as the settings collected them. */
  constructor(home: string, variables: Readonly<Record<string, string | undefined>>) {
    this.#dir = path.join(home, 'secrets');
    this.#variables = variables;
  }

  async get(name: string): Promise<string | undefined> {
    const fromEnv = this.#variables[envName(name)];
    if (fromEnv) return fromEnv;
    const file = path.join(this.#dir, name);
    return existsSync(file) ? (await readFile(file, 'utf8')).trim() : undefined;
  }

  async getOrCreateRandom(name: string): Promise<string> {
    const existing = await this.get(name);
    if (existing) return existing;
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const value = randomBytes(32).toString('base64url');
    try {
      await writeFile(path.join(this.#dir, name), value, { mode: 0o600, flag: 'wx' });
      return value;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await this.get(name)) as string;
      throw error;
    }
  }
}
