import type { StageSettings } from './types';

/** Development and personal stages: smallest and cheapest, removed without a trace. */
export const dev: StageSettings = {
  protect: false,
  removal: 'remove',
  database: {
    instance: 't4g.micro',
    storageGb: 20,
    multiAz: false,
    backupRetentionDays: 1,
    deletionProtection: false,
    finalSnapshot: false,
  },
  logRetention: '1 week',
  network: { nat: 'ec2', vpcEndpoints: false, azs: 2 },
  alarms: { deadLetter: true, api: false },
  lambdaArchitecture: 'arm64',
  secretRecoveryDays: 0,
};
