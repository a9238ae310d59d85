import type { Container } from '@dbops/functions/runtime';
import { getSecretStore } from '@dbops/functions/runtime';
import { installSharedInstanceProvider } from '@dbops/functions/runtime';
import { type EmbeddedSharedInstance, startEmbeddedSharedInstance } from './embedded-shared-instance';

/** Secret holding the embedded cluster's admin password (created on first start). */
const PASSWORD_SECRET = 'shared-instance-local-password';

/**
 * Registers the embedded shared instance as this container's provider: nothing starts until a
 * managed database is first requested (so `npm start` stays fast); concurrent first requests
 * share one start. Returns a function that stops the cluster if this process started it.
 */
export function installEmbeddedSharedInstance(container: Container): () => Promise<void> {
  let started: Promise<EmbeddedSharedInstance> | undefined;
  installSharedInstanceProvider(container, async () => {
    started ??= (async () => {
      const password = await getSecretStore(container).getOrCreateRandom(PASSWORD_SECRET);
      return startEmbeddedSharedInstance({ home: container.settings.home, password, port: container.settings.sharedInstance.port });
    })().catch((error: unknown) => {
      started = undefined;
      throw error;
    });
    return (await started).adminUrl;
  });
  return async () => {
    if (started) await (await started.catch(() => undefined))?.stop();
  };
}
