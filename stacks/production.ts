import type { StageSettings } from './types';

/** Production: protected and retained, Multi-AZ, managed NAT, long retention, every alarm. */
export const production: StageSettings = {
  protect: true,
  removal: 'retain',
  database: {
    instance: 'm7g.large',
    storageGb: 100,
    multiAz: true,
    backupRetentionDays: 30,
    deletionProtection: true,
    finalSnapshot: true,
  },
  logRetention: '13 months',
  network: { nat: 'managed', vpcEndpoints: true, azs: 2 },
  alarms: { deadLetter: true, api: true },
  lambdaArchitecture: 'arm64',
  secretRecoveryDays: 30,
};
