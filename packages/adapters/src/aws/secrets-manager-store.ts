import { CreateSecretCommand, GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SecretStore } from '@dbops/core/secrets';
import { randomBytes } from 'node:crypto';

/** Secrets Manager behind the SecretStore port; secret `name` lives at `<prefix><name>`. */
export function createSecretsManagerStore(prefix: string, client = new SecretsManagerClient({})): SecretStore {
  const cache = new Map<string, string>();
  const get = async (name: string): Promise<string | undefined> => {
    const hit = cache.get(name);
    if (hit !== undefined) return hit;
    try {
      const res = await client.send(new GetSecretValueCommand({ SecretId: `${prefix}${name}` }));
      if (res.SecretString === undefined) return undefined;
      cache.set(name, res.SecretString);
      return res.SecretString;
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return undefined;
      throw error;
    }
  };
  return {
    get,
    async getOrCreateRandom(name) {
      const existing = await get(name);
      if (existing !== undefined) return existing;
      const value = randomBytes(32).toString('base64url');
      try {
        await client.send(new CreateSecretCommand({ Name: `${prefix}${name}`, SecretString: value }));
        cache.set(name, value);
        return value;
      } catch {
        // Someone created it concurrently: read theirs.
        const again = await get(name);
        if (again === undefined) throw new Error(`secret ${prefix}${name} could not be created`);
        return again;
      }
    },
  };
}
