import type { SandboxRollback } from './rollback-round-trip';
import type { SandboxCacheOptions } from './sandbox-cache';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import type { AffectedTable, EndStateRequest, SandboxResult } from '../types';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';

/** What a sandbox thread is given: everything a PGlite run needs, all of it cloneable. */
export interface SandboxJob {
  snapshot: SchemaSnapshot;
  parsed: readonly ParsedStatement[];
  facts: readonly StatementFacts[];
  affected: readonly AffectedTable[][];
  options: {
    timeoutMs?: number;
    rowsPerTable?: number;
    cacheBounds?: SandboxCacheOptions;
    rollback?: SandboxRollback;
    captureEndState?: boolean | EndStateRequest | undefined;
  };
}

/** How a run on a sandbox thread ended. */
export type ThreadOutcome = { kind: 'result'; result: SandboxResult } | { kind: 'failed'; message: string } | { kind: 'deadline' };

export interface SandboxThreadOptions {
  /** Threads at most (default 2): runs beyond wait for a free one. */
  maxThreads: number;
}

const ENTRY = new URL('./sandbox-worker.ts', import.meta.url);

/**
 * Sandbox threads exist where the worker's source sits next to this module (the local runtime
 * and tests, run through tsx). A bundled cloud function has no such file and runs the sandbox
 * in-process: there each request has its own Lambda instance and the function's timeout.
 */
export const sandboxThreadsAvailable = (): boolean => ENTRY.protocol === 'file:' && existsSync(fileURLToPath(ENTRY));

let tsxUrl: string | undefined;
/** tsx's ESM registration API (its `import` entry: the CommonJS one cannot register ESM hooks). */
const tsxApi = (): string =>
  (tsxUrl ??= pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href);

const idle: Worker[] = [];
const waiting: Array<(w: Worker | null) => void> = [];
const retired = new WeakSet<Worker>();
let live = 0;

/** A new thread, once its modules are loaded; null when it could not start. */
function spawn(): Promise<Worker | null> {
  live++;
  // The worker's source is TypeScript: the thread registers tsx's loader first, as the service
  // itself runs through tsx (a thread does not inherit the parent's loader hooks).
  const bootstrap = `import(${JSON.stringify(tsxApi())}).then((m) => { m.register(); return import(${JSON.stringify(ENTRY.href)}); })`;
  const worker = new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 1024 } });
  worker.unref();
  worker.once('exit', () => {
    if (!retired.has(worker)) live--;
    const i = idle.indexOf(worker);
    if (i >= 0) idle.splice(i, 1);
  });
  return new Promise((resolve) => {
    const onReady = (m: { ready?: boolean }) => {
      if (!m.ready) return;
      worker.off('message', onReady);
      resolve(worker);
    };
    worker.on('message', onReady);
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null));
  });
}

function acquire(options: SandboxThreadOptions): Promise<Worker | null> {
  const free = idle.pop();
  if (free) return Promise.resolve(free);
  if (live < options.maxThreads) return spawn();
  return new Promise((resolve) => waiting.push(resolve));
}

function release(worker: Worker): void {
  const next = waiting.shift();
  if (next) next(worker);
  else idle.push(worker);
}

/** A slot freed by a terminated thread goes to the next waiting run, on a new thread. */
function replace(options: SandboxThreadOptions): void {
  const next = waiting.length && live < options.maxThreads ? waiting.shift() : undefined;
  if (next) void spawn().then(next);
}

/**
 * Starts a sandbox thread now when none exists, so that a process's first analysis finds it
 * warm (or starting) instead of paying the thread's start inside its deadline: called as an
 * analysis begins, before its snapshot is read.
 */
export function warmSandboxThread(options: SandboxThreadOptions): void {
  if (live > 0 || !sandboxThreadsAvailable()) return;
  void spawn().then((w) => (w ? release(w) : replace(options)));
}

/**
 * Runs one PGlite sandbox on a thread of its own with a hard deadline: past it the thread is
 * terminated (an endless loop, a runaway recursive query or a huge CREATE TABLE AS inside
 * WebAssembly cannot be interrupted otherwise), and the service's request loop never waits on it.
 */
export async function runOnSandboxThread(job: SandboxJob, deadlineMs: number, options: SandboxThreadOptions): Promise<ThreadOutcome> {
  // The deadline covers waiting for a thread and a thread's start too: the answer must come
  // inside the gateway's window however long a cold or busy machine takes to give a thread.
  const started = Date.now();
  let waitTimer: NodeJS.Timeout | undefined;
  const acquiring = acquire(options);
  const first = await Promise.race([acquiring, new Promise<'deadline'>((resolve) => (waitTimer = setTimeout(() => resolve('deadline'), deadlineMs)))]);
  clearTimeout(waitTimer);
  if (first === 'deadline') {
    void acquiring.then((w) => (w ? release(w) : replace(options)));
    return { kind: 'deadline' };
  }
  const worker = first;
  if (!worker) {
    replace(options);
    return { kind: 'failed', message: 'a sandbox thread could not start' };
  }
  return new Promise<ThreadOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: ThreadOutcome, keep: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (keep) release(worker);
      else {
        // Counted out now, not when the thread has gone, so the next run can have its place.
        if (!retired.has(worker)) {
          retired.add(worker);
          live--;
        }
        void worker.terminate();
        replace(options);
      }
      resolve(outcome);
    };
    const onMessage = (m: { ok: true; result: SandboxResult } | { ok: false; message: string }) =>
      finish(m.ok ? { kind: 'result', result: m.result } : { kind: 'failed', message: m.message }, true);
    const onError = (e: Error) => finish({ kind: 'failed', message: e.message }, false);
    const onExit = () => finish({ kind: 'failed', message: 'the sandbox thread stopped' }, false);
    const timer = setTimeout(() => finish({ kind: 'deadline' }, false), Math.max(0, deadlineMs - (Date.now() - started)));
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage(job);
  });
}
