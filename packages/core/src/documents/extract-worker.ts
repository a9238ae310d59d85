import { parentPort } from 'node:worker_threads';
import { type ExtractJob, runExtractJob } from './extract-job';
import { ownThreadId } from './thread-cpu';

// An extraction thread: decodes, chunks and embeds files and PDF page shares, one job at a time,
// so that a 10 MB file never holds the service's request loop. Chunk batches go out as they are
// ready ({batch}), then the job's outcome.
// A stray rejection (pdfjs settles some internal promises after a document is destroyed) would
// end the thread, and with it the job in hand, as a 500 for a file that is fine: keep the thread.
process.on('unhandledRejection', () => undefined);
parentPort?.on('message', async (job: ExtractJob) => {
  const outcome = await runExtractJob(job, (batch) => {
    parentPort?.postMessage({ batch }, batch.vectors ? [batch.vectors.buffer as ArrayBuffer] : []);
  });
  parentPort?.postMessage(outcome);
});
// The thread's kernel id lets the pool read its CPU time while a job runs (thread-cpu.ts).
parentPort?.postMessage({ ready: true, tid: ownThreadId() });
