import { parentPort } from 'node:worker_threads';
import { runPgliteSandbox } from './run-sandbox';
import { sandboxBaseImage } from './sandbox-pool';
import type { SandboxJob } from './sandbox-threads';

// A sandbox thread: runs PGlite sandboxes one at a time, off the service's request loop. Its
// clone cache and spare instance stay warm between runs; the parent terminates the thread when
// a run passes its deadline (PGlite runs synchronously in WebAssembly and cannot be cancelled).
parentPort?.on('message', async (job: SandboxJob) => {
  try {
    const result = await runPgliteSandbox(job.snapshot, job.parsed, job.facts, job.affected, job.options);
    parentPort?.postMessage({ ok: true, result });
  } catch (error) {
    parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
// Loaded, and the base image every instance starts from built (a PGlite start from its template,
// seconds on a loaded machine): ready for runs. The first run's deadline counts this start too
// (the answer must fit the gateway's window), but a thread started for a waiting run is warm.
void sandboxBaseImage()
  .catch(() => undefined)
  .then(() => parentPort?.postMessage({ ready: true }));
