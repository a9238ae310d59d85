import { ensureConsoleBuilt } from '@dbops/web/build';
import { announceAndServe } from './announce';
import { startLocalRuntime } from './runtime';

/** `npm start`: the whole service on this machine, and the web console (built first if missing or stale). */
const { built } = await ensureConsoleBuilt();
if (built) process.stdout.write('Built the web console (packages/web/dist).\n');
const runtime = await startLocalRuntime();
await announceAndServe(runtime, 'dbops is running.', [['State', runtime.home]]);
