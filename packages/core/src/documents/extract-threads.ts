import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { rejectDocument } from './document-rejection';
import { type ChunkBatch, type ExtractJob, type ExtractOutcome, runExtractJob } from './extract-job';
import { OwnerQueues } from './owner-queues';
import { threadCpuMs } from './thread-cpu';

const ENTRY = new URL('./extract-worker.ts', import.meta.url);

/**
 * Threads exist where the worker's source sits next to this module (the local runtime and
 * tests, run through tsx). A bundled cloud function runs jobs in-process: there ingestion has a
 * Lambda of its own, fed by the queue, and no request loop to keep free.
 */
const threadsAvailable = (): boolean => ENTRY.protocol === 'file:' && existsSync(fileURLToPath(ENTRY));

/** Extraction threads at most: one per core, at most 4 (a thread holds a 10 MB file and pdfjs). */
export const EXTRACT_THREADS = Math.max(1, Math.min(availableParallelism(), 4));

/**
 * Threads at most while users wait: a user with nothing running gets a thread of their own
 * beyond {@link EXTRACT_THREADS} when every thread is busy with other users' files, up to this.
 */
const MOST_THREADS = 2 * EXTRACT_THREADS;

/** A thread's JavaScript heap; past it the thread dies (ERR_WORKER_OUT_OF_MEMORY), not the process. */
const THREAD_HEAP_MB = 1536;

/** How often a running job's CPU time is read and charged to its file. */
const CHARGE_EVERY_MS = 200;

/**
 * CPU time one file may spend on extraction threads, shared by all its jobs (scan and page
 * shares), and optionally a wall-clock end (`performance.now()` time) for a request that must
 * answer within the gateway's window.
 */
export class FileBudget {
  usedMs = 0;
  constructor(
    readonly cpuMs: number,
    readonly endsAt: number = Number.POSITIVE_INFINITY,
  ) {}
  /** Which bound the file has passed, if any. */
  get exceeded(): 'cpu' | 'wall' | undefined {
    if (this.usedMs > this.cpuMs) return 'cpu';
    return performance.now() > this.endsAt ? 'wall' : undefined;
  }
}

/** What a job runs under: whose file it is (fairness) and the file's CPU budget. */
export interface JobContext {
  owner: string;
  budget: FileBudget;
}

let tsxUrl: string | undefined;
const tsxApi = (): string =>
  (tsxUrl ??= pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href);

interface Task {
  job: ExtractJob;
  context: JobContext;
  /** Answered before the job ended (its request's window passed): what the thread still sends is dropped. */
  answered: boolean;
  emit(batch: ChunkBatch): void;
  resolve(outcome: ExtractOutcome): void;
}

interface Thread {
  worker: Worker;
  /** Kernel thread id, once the thread is ready (undefined off Linux: wall time is charged instead). */
  tid: number | undefined;
  ready: boolean;
  current: Task | undefined;
  /** The worker's last 'error' (e.g. ERR_WORKER_OUT_OF_MEMORY), read when it exits. */
  failure: Error | undefined;
  stopCharging(): void;
}

const threads = new Set<Thread>();
const idle: Thread[] = [];
const waiting = new OwnerQueues<Task>();
const running = new Map<string, number>();
const runningOf = (owner: string): number => running.get(owner) ?? 0;
const busyCount = (): number => [...threads].filter((t) => t.current).length;

const timeoutOutcome = (task: Task): ExtractOutcome => {
  const { filename } = task.job.file;
  const seconds = Math.round(task.context.budget.cpuMs / 100) / 10;
  const rejection =
    task.context.budget.exceeded === 'wall'
      ? rejectDocument(filename, 'extraction_timeout', `${filename} could not be read within this request's time; send it through an upload batch`, {
          limit_cpu_seconds: seconds,
        })
      : rejectDocument(filename, 'extraction_timeout', `${filename} took more than ${seconds} s of CPU to read and was stopped`, {
          limit_cpu_seconds: seconds,
        });
  return { ok: false, error: rejection.toBody() };
};

const memoryOutcome = (task: Task): ExtractOutcome => ({
  ok: false,
  error: rejectDocument(
    task.job.file.filename,
    'extraction_memory',
    `${task.job.file.filename} needed more than the ${THREAD_HEAP_MB} MB an extraction thread may use, and was stopped`,
    { limit_heap_mb: THREAD_HEAP_MB },
  ).toBody(),
});

/** How many threads the waiting and running work should have now. */
function wanted(): number {
  const busy = busyCount();
  const base = Math.min(EXTRACT_THREADS, busy + waiting.size);
  const newcomers = waiting.owners().filter((o) => runningOf(o) === 0).length;
  return Math.min(MOST_THREADS, Math.max(base, busy + newcomers));
}

/** Hands waiting tasks to idle threads fairly, starts threads the work wants, lets surplus idle ones go. */
function pump(): void {
  while (idle.length > 0 && waiting.size > 0) start(idle.pop()!, waiting.take(runningOf)!.item);
  // A thread still starting takes a waiting task when ready: start no more threads than there are tasks for.
  let starting = [...threads].filter((t) => !t.ready).length;
  while (threads.size < wanted() && starting < waiting.size) {
    spawn();
    starting++;
  }
  while (idle.length > 0 && threads.size > EXTRACT_THREADS) retire(idle.pop()!);
}

function retire(thread: Thread): void {
  threads.delete(thread);
  const i = idle.indexOf(thread);
  if (i >= 0) idle.splice(i, 1);
  thread.stopCharging();
  void thread.worker.terminate();
}

/** Ends the thread's current task with `outcome`; the thread goes back to idle or, when `kill`, is terminated and replaced. */
function finish(thread: Thread, outcome: ExtractOutcome, kill: boolean): void {
  const task = thread.current;
  thread.stopCharging();
  thread.current = undefined;
  if (task) running.set(task.context.owner, runningOf(task.context.owner) - 1);
  if (kill) {
    retire(thread);
    // The replacement starts now, so the next file does not also wait for a thread's start.
    while (threads.size < EXTRACT_THREADS) spawn();
  } else idle.push(thread);
  task?.resolve(outcome);
  pump();
}

function start(thread: Thread, task: Task): void {
  const { budget } = task.context;
  // A sibling job already spent the file's budget: this one is refused without running.
  if (budget.exceeded) {
    idle.push(thread);
    task.resolve(timeoutOutcome(task));
    return;
  }
  thread.current = task;
  running.set(task.context.owner, runningOf(task.context.owner) + 1);
  const tid = thread.tid;
  const onProc = tid !== undefined && threadCpuMs(tid) !== undefined;
  let last = 0;
  const cpu = (): number => (onProc ? (threadCpuMs(tid) ?? last) : performance.now());
  last = cpu();
  const charge = (): void => {
    const now = cpu();
    budget.usedMs += Math.max(0, now - last);
    last = now;
    if (thread.current !== task) return;
    const over = budget.exceeded;
    // Past its CPU budget the file is the problem: the thread is stopped. Past a request's window
    // the machine may only be busy: the request is answered and the thread, left to finish (or to
    // reach the CPU budget), stays warm for the next file.
    if (over === 'cpu') finish(thread, timeoutOutcome(task), true);
    else if (over === 'wall' && !task.answered) {
      task.answered = true;
      task.resolve(timeoutOutcome(task));
    }
  };
  const timer = setInterval(charge, CHARGE_EVERY_MS);
  timer.unref();
  thread.stopCharging = () => {
    clearInterval(timer);
    thread.stopCharging = () => undefined;
    if (thread.current === task) {
      const now = cpu();
      budget.usedMs += Math.max(0, now - last);
    }
  };
  thread.worker.postMessage(task.job);
}

function spawn(): void {
  // The worker is TypeScript: the thread registers tsx's loader first, as the service runs through tsx.
  const bootstrap = `import(${JSON.stringify(tsxApi())}).then((m) => { m.register(); return import(${JSON.stringify(ENTRY.href)}); })`;
  const worker = new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
  worker.unref();
  const thread: Thread = { worker, tid: undefined, ready: false, current: undefined, failure: undefined, stopCharging: () => undefined };
  threads.add(thread);
  worker.on('message', (m: ExtractOutcome | { ready: true; tid?: number } | { batch: ChunkBatch }) => {
    if (!threads.has(thread)) return;
    if ('ready' in m) {
      thread.tid = m.tid;
      thread.ready = true;
      idle.push(thread);
      return pump();
    }
    if ('batch' in m) return thread.current?.answered ? undefined : thread.current?.emit(m.batch);
    if (thread.current) finish(thread, m, false);
  });
  // The cause goes into the job's failure message (and so the service's error log).
  worker.on('error', (error) => {
    thread.failure = error instanceof Error ? error : new Error(String(error));
  });
  worker.once('exit', (code) => {
    if (!threads.has(thread)) return;
    const task = thread.current;
    const outOfMemory = (thread.failure as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    const message = `extraction thread stopped (exit code ${code})${thread.failure ? `: ${thread.failure.message}` : ''}`;
    if (task) finish(thread, outOfMemory ? memoryOutcome(task) : { ok: false, error: null, message }, true);
    else {
      retire(thread);
      pump();
    }
  });
}

/**
 * Starts threads up to `n` (at most {@link EXTRACT_THREADS}) ahead of jobs that will want them:
 * a PDF's page shares follow its stream scan, and a thread's start (tsx, then pdfjs) is better
 * spent while the scan runs than after it.
 */
export function warmExtractThreads(n: number): void {
  if (!threadsAvailable()) return;
  while (threads.size < Math.min(n, EXTRACT_THREADS)) spawn();
}

/**
 * Runs one job on an extraction thread, or in-process where threads are not available; `emit`
 * receives its chunk batches as they come. Jobs wait in one queue per owner and are taken
 * fairly (owner-queues.ts), and a user with nothing running never waits behind other users'
 * files: the pool grows past {@link EXTRACT_THREADS} for them, to {@link MOST_THREADS}. The job's
 * CPU time is charged to its file's budget while it runs; once the file has used it up the
 * thread is terminated (a parse stuck in one synchronous loop cannot be interrupted otherwise)
 * and replaced, and the file is refused (`extraction_timeout`). A file past its wall-clock end
 * (a multipart request's window) is refused at once, its job left to end on its own.
 */
export function runOnExtractThread(job: ExtractJob, context: JobContext, emit: (batch: ChunkBatch) => void): Promise<ExtractOutcome> {
  if (!threadsAvailable()) return runExtractJob(job, emit);
  return new Promise((resolve) => {
    waiting.push(context.owner, { job, context, answered: false, emit, resolve });
    pump();
  });
}
