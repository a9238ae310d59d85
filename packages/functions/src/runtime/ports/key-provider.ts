import { AppError } from '@dbops/core/errors/app-error';
import type { KeyProvider } from '@dbops/core/crypto/key-provider';
import { memoPer } from '@dbops/core/util/memo-per';
import type { Container } from '../container';

/**
 * The key provider of this process: AWS KMS when `DBOPS_KMS_KEY_ID` is set, otherwise the
 * local master key file under DBOPS_HOME. Owned by the connections issue (#3), which replaces
 * this placeholder.
 */
export const getKeyProvider = memoPer<Container, KeyProvider>(() => ({
  name: 'unconfigured',
  generateDataKey: async () => {
    throw new AppError('NOT_IMPLEMENTED', 'encryption is not implemented yet');
  },
  decryptDataKey: async () => {
    throw new AppError('NOT_IMPLEMENTED', 'encryption is not implemented yet');
  },
}));
