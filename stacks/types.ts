/**
 * Per-stage settings of the cloud deployment. `sst.config.ts` picks one by `$app.stage`
 * (see stacks/index.ts); everything that differs between dev, staging and production lives
 * here and nowhere else.
 */

/** CloudWatch Logs retention, in SST's vocabulary. */
export type LogRetention = '1 week' | '2 weeks' | '1 month' | '3 months' | '6 months' | '1 year' | '13 months';

export interface StageSettings {
  /** Pulumi `protect` on every resource: deletes fail until the flag is lifted. */
  protect: boolean;
  /**
   * What `sst remove` and replaced resources do: `remove` deletes them, `retain` keeps data
   * stores (database, KMS key, secrets, queues) and `retain-all` keeps everything.
   */
  removal: 'remove' | 'retain' | 'retain-all';
  database: {
    /** RDS instance class without the `db.` prefix, e.g. `t4g.micro`. */
    instance: string;
    /** Allocated storage in GB (gp3). */
    storageGb: number;
    /** A synchronous standby in a second availability zone. */
    multiAz: boolean;
    /** Automated backups kept, in days (0 disables them). */
    backupRetentionDays: number;
    /** RDS deletion protection: the instance cannot be deleted until it is turned off. */
    deletionProtection: boolean;
    /** Take a final snapshot when the instance is deleted. */
    finalSnapshot: boolean;
  };
  /** Retention of every function's and the API's access log group. */
  logRetention: LogRetention;
  network: {
    /**
     * Outbound internet for functions (JWKS of the JWT issuer, Stripe, OpenAI, users' databases
     * outside the VPC): `ec2` is a t4g.nano NAT instance per AZ (cheap, not highly available),
     * `managed` a NAT Gateway per AZ.
     */
    nat: 'ec2' | 'managed';
    /**
     * Interface VPC endpoints for KMS, Secrets Manager and SQS, so those calls never leave the
     * VPC. Without them the calls go out through the NAT (same result, different path).
     */
    vpcEndpoints: boolean;
    /** Availability zones used (RDS needs at least 2 for its subnet group). */
    azs: number;
  };
  alarms: {
    /** The dead-letter queue alarm; always on in every stage. */
    deadLetter: true;
    /** Alarms on API 5xx, function errors and throttles. */
    api: boolean;
  };
  /** CPU architecture of every function (the WASM modules run on both). */
  lambdaArchitecture: 'arm64' | 'x86_64';
  /** Keep old secrets recoverable for this many days after deletion (0 = delete at once). */
  secretRecoveryDays: number;
}
