import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type ChunkBatch, type ExtractJob, type ExtractOutcome, runExtractJob } from './extract-job';

const ENTRY = new URL('./extract-worker.ts', import.meta.url);

/**
 * Threads exist where the worker's source sits next to this module (the local runtime and
 * tests, run through tsx). A bundled cloud function runs jobs in-process: there ingestion has a
 * Lambda of its own, fed by the queue, and no request loop to keep free.
 */
const threadsAvailable = (): boolean => ENTRY.protocol === 'file:' && existsSync(fileURLToPath(ENTRY));

/** Extraction threads at most: one per core, at most 4 (a thread holds a 10 MB file and pdfjs). */
export const EXTRACT_THREADS = Math.max(1, Math.min(availableParallelism(), 4));

let tsxUrl: string | undefined;
const tsxApi = (): string =>
  (tsxUrl ??= pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href);

interface Task {
  job: ExtractJob;
  emit(batch: ChunkBatch): void;
  resolve(outcome: ExtractOutcome): void;
}

/** Idle threads, as the function that hands one the next queued task. */
const idle: Array<() => void> = [];
const queue: Task[] = [];
let live = 0;

function spawn(): void {
  live++;
  // The worker is TypeScript: the thread registers tsx's loader first, as the service runs through tsx.
  const bootstrap = `import(${JSON.stringify(tsxApi())}).then((m) => { m.register(); return import(${JSON.stringify(ENTRY.href)}); })`;
  const worker = new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 1536 } });
  worker.unref();
  let current: Task | undefined;
  const next = (): void => {
    current = queue.shift();
    if (!current) {
      idle.push(next);
      return;
    }
    worker.postMessage(current.job);
  };
  worker.on('message', (m: ExtractOutcome | { ready: true } | { batch: ChunkBatch }) => {
    if ('ready' in m) return next();
    if ('batch' in m) return current?.emit(m.batch);
    const done = current;
    current = undefined;
    done?.resolve(m);
    next();
  });
  let failure = '';
  worker.once('exit', (code) => {
    live--;
    const i = idle.indexOf(next);
    if (i >= 0) idle.splice(i, 1);
    current?.resolve({ ok: false, error: null, message: `extraction thread stopped (exit code ${code})${failure}` });
    if (queue.length > 0) spawn();
  });
  // The cause goes into the job's failure message (and so the service's error log).
  worker.on('error', (error) => {
    failure = `: ${error instanceof Error ? error.message : String(error)}`;
  });
}

/**
 * Runs one job on an extraction thread (jobs beyond the thread count wait for a free one), or
 * in-process where threads are not available; `emit` receives its chunk batches as they come.
 */
export function runOnExtractThread(job: ExtractJob, emit: (batch: ChunkBatch) => void): Promise<ExtractOutcome> {
  if (!threadsAvailable()) return runExtractJob(job, emit);
  return new Promise((resolve) => {
    const task: Task = { job, emit, resolve };
    queue.push(task);
    const wake = idle.pop();
    if (wake) wake();
    else if (live < EXTRACT_THREADS) spawn();
  });
}
