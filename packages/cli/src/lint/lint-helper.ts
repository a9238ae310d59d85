import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WasmModule } from '@dbops/core/pg';
import type { FileReport } from './cli-finding';

/** What linting one file gave: its report, or the failure that stops the run (an unreadable file). */
export type FileOutcome = { report: FileReport } | { error: string; cli: boolean };

/** Options as they cross to the helper thread (a Set does not survive the trip as a Set in older Nodes' typings). */
export interface HelperOptions {
  cwd: string;
  pgVersion?: number;
  assumeInTransaction?: boolean;
  excludedRules: string[];
}

/** The job the helper thread is sent once the files are known. */
export interface HelperJob {
  files: readonly string[];
  options: HelperOptions;
  /** Index of the next file nobody has taken yet, shared by both threads (Atomics.add). */
  next: Int32Array;
}

/** The parser's compiled module (sent first, as soon as it is compiled), then the job. */
export type HelperMessage = { module: WasmModule | null } | HelperJob;

// Below this many files a second thread costs more (its start, its own copy of the rules and the
// parser) than it saves.
const MIN_FILES = 48;

export interface LintHelper {
  /** Sends the job; resolves with the outcomes of the files the helper took (an empty map if it failed). */
  run(job: HelperJob): Promise<Map<number, FileOutcome>>;
}

/** The helper thread's module: beside this chunk in the bundle (dist/), absent when the CLI runs from its sources. */
const helperModule = (): URL | null => {
  const url = new URL('./lint-worker.mjs', import.meta.url);
  return url.protocol === 'file:' && import.meta.url.endsWith('.mjs') && existsSync(fileURLToPath(url)) ? url : null;
};

/**
 * Whether a second thread may help: DBOPS_LINT_THREADS=1 never, =2 always; by default only when a
 * core is idle. The helper costs CPU of its own (its start, its own copy of the rules' code), about
 * a third of a run on lemmy's migrations, so on a busy machine it makes the run slower, not faster
 * (docs/benchmarks.md, #19).
 */
function helperWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.DBOPS_LINT_THREADS === '1') return false;
  if (env.DBOPS_LINT_THREADS === '2') return true;
  const cores = availableParallelism();
  return cores >= 2 && loadavg()[0]! <= cores - 1.5;
}

/**
 * Starts a second thread that loads the rules and the parser while this one reads the
 * configuration and expands the globs; both then take files from one shared counter, so a helper
 * that starts late or gets little CPU only takes fewer files. Null when {@link helperWanted} says no.
 */
export function startLintHelper(env: NodeJS.ProcessEnv, parser: Promise<WasmModule | null>): LintHelper | null {
  if (!helperWanted(env)) return null;
  const url = helperModule();
  if (!url) return null;
  let worker: Worker;
  try {
    worker = new Worker(url, { stdout: false, stderr: false });
  } catch {
    return null;
  }
  void parser.then((module) => worker.postMessage({ module } satisfies HelperMessage));
  // Until it has a job, the helper must not keep the process alive (a usage error ends the run first).
  worker.unref();
  const done = new Promise<Map<number, FileOutcome>>((resolve) => {
    worker.once('message', (m: [number, FileOutcome][]) => resolve(new Map(m)));
    worker.once('error', () => resolve(new Map()));
    worker.once('exit', () => resolve(new Map()));
  });
  return {
    run(job) {
      if (job.files.length < MIN_FILES) {
        void worker.terminate();
        return Promise.resolve(new Map());
      }
      worker.ref();
      worker.postMessage(job);
      return done.then((m) => {
        worker.unref();
        return m;
      });
    },
  };
}
