import type { StageSettings } from '../stacks/types';

/**
 * The service's state database: RDS PostgreSQL 17 (pgvector ships with RDS; the deploy-time
 * migration runs `CREATE EXTENSION vector`) behind RDS Proxy, which pools the connections of
 * many short-lived Lambda instances. TLS is forced on the instance and on the proxy.
 */
export function createDatabase(settings: StageSettings, vpc: sst.aws.Vpc, key: aws.kms.Key) {
  const db = settings.database;
  const database = new sst.aws.Postgres('Database', {
    vpc,
    version: '17',
    database: 'dbops',
    instance: db.instance,
    storage: `${db.storageGb} GB`,
    multiAz: db.multiAz,
    proxy: true,
    transform: {
      instance: (args, opts) => {
        // Data outlives the stack unless the stage says remove (production: retain).
        if (settings.removal !== 'remove') opts.retainOnDelete = true;
        args.kmsKeyId = key.arn;
        args.deletionProtection = db.deletionProtection;
        args.backupRetentionPeriod = db.backupRetentionDays;
        args.skipFinalSnapshot = !db.finalSnapshot;
        if (db.finalSnapshot) args.finalSnapshotIdentifier = `dbops-${$app.stage}-final`;
        args.copyTagsToSnapshot = true;
      },
      parameterGroup: (args) => {
        // SST's default turns forced TLS off; the state holds encrypted secrets and usage data.
        args.parameters = [
          { name: 'rds.force_ssl', value: '1' },
          { name: 'log_min_duration_statement', value: '1000' },
        ];
      },
      proxy: (args) => {
        args.requireTls = true;
        args.idleClientTimeout = 1800;
      },
    },
  });

  /**
   * What the functions connect to: the proxy's endpoint with TLS (the proxy's certificate is
   * issued by Amazon's public CA, which Node trusts, so `sslmode=require` verifies it).
   */
  const url = $interpolate`postgresql://${database.username}:${database.password.apply(encodeURIComponent)}@${database.host}:${database.port}/${database.database}?sslmode=require`;
  return { database, url };
}
