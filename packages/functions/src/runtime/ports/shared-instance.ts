import { AppError } from '@dbops/core/errors';
import type { SharedInstance } from '@dbops/core/provisioning';
import type { Container } from '../container';
import { getSecretStore } from './secret-store';

/** Name of the admin connection string in the secret store. */
export const SHARED_INSTANCE_SECRET = 'shared-instance-admin-url';

/** Starts or finds a shared instance on first need; the local runtime registers one (embedded PostgreSQL). */
export type SharedInstanceProvider = () => Promise<string>;

const providers = new WeakMap<Container, SharedInstanceProvider>();

/** The local runtime installs its embedded-PostgreSQL starter here. */
export function installSharedInstanceProvider(container: Container, provider: SharedInstanceProvider): void {
  providers.set(container, provider);
}

/**
 * The shared instance of this process, resolved on every use (cheap) so a rotated secret is
 * picked up: the secret `shared-instance-admin-url`, then `DBOPS_SHARED_INSTANCE_URL`, then the
 * provider the local runtime installed. With none of them provisioning answers 503.
 */
export function getSharedInstance(container: Container): SharedInstance {
  return {
    async adminUrl() {
      const fromSecret = await getSecretStore(container).get(SHARED_INSTANCE_SECRET);
      if (fromSecret) return fromSecret;
      const fromEnv = container.settings.sharedInstance.url;
      if (fromEnv) return fromEnv;
      const provider = providers.get(container);
      if (provider) return provider();
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'No shared PostgreSQL instance is configured for managed databases (secret shared-instance-admin-url or DBOPS_SHARED_INSTANCE_URL).',
      );
    },
  };
}
