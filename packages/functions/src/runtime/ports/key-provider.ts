import type { KeyProvider } from '@dbops/core/crypto';
import { LocalKeyFileProvider } from '@dbops/core/crypto';
import { memoPer } from '@dbops/core/util';
import type { Container } from '../container';

/**
 * The key provider of this process: AWS KMS when `DBOPS_KMS_KEY_ID` (key id, ARN or alias) is
 * set, otherwise the local master key file `<DBOPS_HOME>/keys/master.key`.
 */
export const getKeyProvider = memoPer<Container, KeyProvider>((c) => {
  const kmsKeyId = c.settings.kmsKeyId;
  if (kmsKeyId) {
    // Loaded lazily so handlers that never decrypt do not pay for the AWS SDK at cold start.
    return lazyKeyProvider('aws-kms', () => import('@dbops/adapters/aws/kms-key-provider').then((m) => m.createKmsKeyProvider(kmsKeyId)));
  }
  return new LocalKeyFileProvider(c.settings.home);
});

function lazyKeyProvider(name: string, load: () => Promise<KeyProvider>): KeyProvider {
  let provider: Promise<KeyProvider> | undefined;
  const get = (): Promise<KeyProvider> => (provider ??= load());
  return {
    name,
    generateDataKey: async (context) => (await get()).generateDataKey(context),
    decryptDataKey: async (encrypted, context) => (await get()).decryptDataKey(encrypted, context),
  };
}
