import type { CoreDeps } from '@dbops/core/deps';
import type { Embedder } from '@dbops/core/embeddings';
import type { KeyProvider } from '@dbops/core/crypto';
import type { SecretStore } from '@dbops/core/secrets';
import type { Container } from './container';
import { getEmbedder } from './ports/embedder';
import { getKeyProvider } from './ports/key-provider';
import { getSecretStore } from './ports/secret-store';

/** Everything domain functions take: the container's store, settings and clock plus the ports. */
export interface DomainDeps extends CoreDeps {
  keyProvider: KeyProvider;
  embedder: Embedder;
  secrets: SecretStore;
}

/** The domain dependencies of this container; ports are built once per container. */
export const domainDeps = (c: Container): DomainDeps => ({
  store: c.store,
  settings: c.settings,
  clock: c.clock,
  keyProvider: getKeyProvider(c),
  embedder: getEmbedder(c),
  secrets: getSecretStore(c),
});
