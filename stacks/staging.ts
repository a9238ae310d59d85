import type { StageSettings } from './types';

/** Staging: production's shape (endpoints, alarms, TLS), one size smaller and disposable. */
export const staging: StageSettings = {
  protect: false,
  removal: 'remove',
  database: {
    instance: 't4g.small',
    storageGb: 20,
    multiAz: false,
    backupRetentionDays: 7,
    deletionProtection: false,
    finalSnapshot: true,
  },
  logRetention: '1 month',
  network: { nat: 'ec2', vpcEndpoints: true, azs: 2 },
  alarms: { deadLetter: true, api: true },
  lambdaArchitecture: 'arm64',
  secretRecoveryDays: 7,
};
