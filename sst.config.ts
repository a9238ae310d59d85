/// <reference path="./.sst/platform/config.d.ts" />

/**
 * dbops on AWS: API Gateway (HTTP API) with one Lambda per endpoint and two Lambda
 * authorizers, an SQS-driven migration executor, KMS, Secrets Manager and RDS PostgreSQL
 * (pgvector) behind RDS Proxy, in a VPC. Per-stage settings live in stacks/, resources in
 * infra/. See docs/deploy.md.
 */
export default $config({
  async app(input) {
    const { settingsFor } = await import('./stacks/index');
    const stage = input?.stage ?? 'dev';
    const settings = settingsFor(stage);
    return {
      name: 'dbops',
      home: 'aws',
      removal: settings.removal,
      protect: settings.protect,
      providers: { aws: { version: '7.20.0', region: (process.env.AWS_REGION ?? 'eu-west-1') as aws.Region } },
    };
  },
  async run() {
    const { settingsFor } = await import('./stacks/index');
    const { createNetwork } = await import('./infra/network');
    const { createKey } = await import('./infra/crypto');
    const { createSecrets } = await import('./infra/secrets');
    const { createDatabase } = await import('./infra/database');
    const { createAlarmTopic } = await import('./infra/alarms');
    const { createQueues } = await import('./infra/queue');
    const { createJwtIssuer } = await import('./infra/auth');
    const { runMigrationsOnDeploy } = await import('./infra/deploy-migrations');
    const { createApi } = await import('./infra/api');
    const { subscribeExecutor } = await import('./infra/executor');
    const { createApiAlarms } = await import('./infra/api-alarms');
    const { createConsole } = await import('./infra/console');
    const { createDocumentUploads, subscribeDocumentIngestion } = await import('./infra/document-uploads');

    const settings = settingsFor($app.stage);
    const vpc = createNetwork(settings);
    const key = createKey(settings);
    const secrets = createSecrets(settings, key);
    const { database, url } = createDatabase(settings, vpc, key);
    const alarmTopic = createAlarmTopic();
    const { queue, deadLetter } = createQueues(key, alarmTopic);
    const uploads = createDocumentUploads(key, alarmTopic);
    const jwt = createJwtIssuer();

    const runtime = {
      settings,
      vpc,
      key,
      databaseUrl: url,
      secretsPrefix: secrets.prefix,
      secretArns: secrets.all.map((s) => s.arn),
      queueUrl: queue.url,
      queueArn: queue.arn,
      jwt,
      uploads: {
        bucketName: uploads.bucket.name,
        bucketArn: uploads.bucket.arn,
        objectsArn: $interpolate`${uploads.bucket.arn}/uploads/*`,
        queueUrl: uploads.queue.url,
        queueArn: uploads.queue.arn,
      },
    };
    const { invocation } = runMigrationsOnDeploy(runtime, database);
    const domainName = process.env.DBOPS_DOMAIN;
    const { api, functions } = createApi(runtime, {
      ...(domainName ? { domain: { name: domainName, ...(process.env.DBOPS_DOMAIN_CERT_ARN ? { cert: process.env.DBOPS_DOMAIN_CERT_ARN } : {}) } } : {}),
      dependsOn: [invocation],
    });
    subscribeExecutor(runtime, queue, [invocation]);
    subscribeDocumentIngestion(runtime, uploads.queue, [invocation]);
    if (settings.alarms.api) createApiAlarms(api, functions, alarmTopic);
    // Presigned POSTs go to the bucket's regional virtual-hosted address (https://<bucket>.s3.<region>.amazonaws.com).
    const uploadOrigin = $interpolate`https://${uploads.bucket.nodes.bucket.bucketRegionalDomainName}`;
    const webConsole = createConsole(api.url, uploadOrigin, process.env.DBOPS_CONSOLE_DOMAIN ? { domain: process.env.DBOPS_CONSOLE_DOMAIN } : {});

    return {
      api: api.url,
      console: webConsole.url,
      stripeWebhookUrl: $interpolate`${api.url}/api/v1/billing/webhook`,
      jwtIssuer: jwt.issuer,
      jwtAudience: jwt.audience,
      ...(jwt.userPool ? { userPoolId: jwt.userPool.id } : {}),
      secretsPrefix: secrets.prefix,
      migrationQueue: queue.url,
      migrationDeadLetterQueue: deadLetter.url,
      uploadBucket: uploads.bucket.name,
      documentQueue: uploads.queue.url,
      documentDeadLetterQueue: uploads.deadLetter.url,
      databaseHost: database.host,
    };
  },
});
