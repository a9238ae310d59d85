import { parentPort } from 'node:worker_threads';
import { runExtractJob, type ExtractJob } from './extract-job';

// An extraction thread: decodes, chunks and embeds files and PDF page ranges, one job at a time,
// so that a 10 MB file never holds the service's request loop.
parentPort?.on('message', async (job: ExtractJob) => {
  const outcome = await runExtractJob(job);
  const transfer = outcome.ok && outcome.vectors ? [outcome.vectors.buffer as ArrayBuffer] : [];
  parentPort?.postMessage(outcome, transfer);
});
parentPort?.postMessage({ ready: true });
