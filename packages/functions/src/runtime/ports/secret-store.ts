import { LocalSecretStore, type SecretStore } from '@dbops/core/secrets';
import { memoPer } from '@dbops/core/util';
import type { Container } from '../container';

/**
 * The secret store of this process: AWS Secrets Manager when `DBOPS_SECRETS_PREFIX` names the
 * service's secrets (cloud), otherwise environment variables and files under `DBOPS_HOME`.
 */
export const getSecretStore = memoPer<Container, SecretStore>((c) => {
  const prefix = c.settings.secretsPrefix;
  if (prefix) {
    // Loaded lazily so handlers that never read a secret do not pay for the AWS SDK.
    return lazySecretStore(() => import('@dbops/adapters/aws/secrets-manager-store').then((m) => m.createSecretsManagerStore(prefix)));
  }
  return new LocalSecretStore(c.settings.home, c.settings.secretVariables);
});

function lazySecretStore(load: () => Promise<SecretStore>): SecretStore {
  let store: Promise<SecretStore> | undefined;
  const get = (): Promise<SecretStore> => (store ??= load());
  return {
    get: async (name) => (await get()).get(name),
    getOrCreateRandom: async (name) => (await get()).getOrCreateRandom(name),
  };
}
