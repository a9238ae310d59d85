import { type ServiceRuntime, functionArgs } from './function-defaults';
import { DEPLOY_MIGRATE_MODULE, lambdaHandler, installFor } from './route-plan';

/**
 * Applies the service's schema migrations during `sst deploy`: a function in the VPC runs
 * `migrate(store, serviceMigrations)` (and `CREATE EXTENSION vector`), and a Lambda invocation
 * resource calls it on every deploy. A failed migration fails the deploy. API functions depend
 * on the invocation, so new code goes live only after its schema exists.
 */
export function runMigrationsOnDeploy(rt: ServiceRuntime, database: sst.aws.Postgres) {
  const migrator = new sst.aws.Function(
    'DeployMigrate',
    functionArgs(rt, {
      handler: lambdaHandler(DEPLOY_MIGRATE_MODULE),
      description: 'dbops schema migrations (invoked by the deploy)',
      memoryMb: 512,
      timeoutSeconds: 300,
      install: installFor('deploy-migrate'),
      grants: {},
    }),
    { dependsOn: [database] },
  );
  const invocation = new aws.lambda.Invocation('DeployMigrateRun', {
    functionName: migrator.name,
    input: JSON.stringify({ source: 'sst-deploy' }),
    // A new value every deploy, so the migrations are checked each time (they are idempotent).
    triggers: { deployedAt: new Date().toISOString() },
  });
  return { migrator, invocation };
}
