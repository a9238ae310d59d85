import type { StageSettings } from '../stacks/types';

/**
 * Names of the service's secrets in Secrets Manager, under `dbops/<stage>/`. The code reads
 * them through the SecretStore port as `<DBOPS_SECRETS_PREFIX><name>`.
 */
export const SECRET_NAMES = {
  /** HMAC key of migration approval tokens; generated here, never set by hand. */
  approvalSigningKey: 'approval-signing-key',
  /** Stripe API secret key (`sk_live_...` / `sk_test_...`); set by the operator. */
  stripeSecretKey: 'stripe-secret-key',
  /** Stripe webhook signing secret (`whsec_...`); set by the operator. */
  stripeWebhookSecret: 'stripe-webhook-secret',
  /** OpenAI API key for embeddings and text-to-SQL; set by the operator. */
  openaiApiKey: 'openai-api-key',
} as const;

export const secretsPrefix = (stage: string): string => `dbops/${stage}/`;

/**
 * The secrets, encrypted with the service key. Operator-set secrets are created empty (no
 * version): until a value is put, reading one answers "not set" and the feature reports that
 * it is not configured. The approval key gets a random value once; later deploys keep it, so
 * outstanding approval tokens stay valid.
 */
export function createSecrets(settings: StageSettings, key: aws.kms.Key) {
  const prefix = secretsPrefix($app.stage);
  const secret = (id: string, name: string, description: string) =>
    new aws.secretsmanager.Secret(
      id,
      { name: `${prefix}${name}`, description, kmsKeyId: key.arn, recoveryWindowInDays: settings.secretRecoveryDays },
      { retainOnDelete: settings.removal !== 'remove' },
    );

  const approvalSigningKey = secret('ApprovalSigningKey', SECRET_NAMES.approvalSigningKey, 'HMAC key of migration approval tokens');
  const random = aws.secretsmanager.getRandomPasswordOutput({ passwordLength: 48, excludePunctuation: true });
  new aws.secretsmanager.SecretVersion(
    'ApprovalSigningKeyValue',
    { secretId: approvalSigningKey.id, secretString: random.randomPassword },
    // The data source yields a new value on every deploy; keep the first one.
    { ignoreChanges: ['secretString'] },
  );

  const stripeSecretKey = secret('StripeSecretKey', SECRET_NAMES.stripeSecretKey, 'Stripe API secret key (set by the operator)');
  const stripeWebhookSecret = secret('StripeWebhookSecret', SECRET_NAMES.stripeWebhookSecret, 'Stripe webhook signing secret (set by the operator)');
  const openaiApiKey = secret('OpenaiApiKey', SECRET_NAMES.openaiApiKey, 'OpenAI API key (set by the operator)');

  return { prefix, all: [approvalSigningKey, stripeSecretKey, stripeWebhookSecret, openaiApiKey], stripeSecretKey, stripeWebhookSecret };
}
