import type { StageSettings } from '../stacks/types';

/**
 * The service's one KMS key: envelope encryption of connection strings (data keys), the
 * secrets, the queues and the functions' environment. Rotated yearly by KMS.
 */
export function createKey(settings: StageSettings) {
  const key = new aws.kms.Key(
    'ServiceKey',
    {
      description: `dbops ${$app.stage}: connection strings, secrets, queues`,
      enableKeyRotation: true,
      deletionWindowInDays: 30,
    },
    // Without the key every encrypted connection string is lost: keep it unless the stage is disposable.
    { retainOnDelete: settings.removal !== 'remove' },
  );
  new aws.kms.Alias('ServiceKeyAlias', { name: `alias/dbops-${$app.stage}`, targetKeyId: key.keyId });
  return key;
}
