/** Messages between the local Lambda service (lambda-service.ts) and a function process (lambda-bootstrap.ts). */

/** What the bootstrap needs to build the handler's `context`, as Lambda's runtime API hands it over. */
export interface InvokeContext {
  awsRequestId: string;
  functionName: string;
  memoryLimitInMB: string;
  /** Epoch milliseconds at which the invocation times out (Lambda's `Lambda-Runtime-Deadline-Ms`). */
  deadlineMs: number;
}

export type ToFunction = { type: 'invoke'; id: number; event: unknown; context: InvokeContext };

export type FromFunction =
  /** The module was imported (Lambda's init phase is over); `initMs` from process start. */
  | { type: 'ready'; initMs: number; rss: number }
  /** The module failed to import (Lambda: `Runtime.ImportModuleError`). */
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; ok: true; value: unknown; rss: number }
  | { type: 'result'; id: number; ok: false; errorType: string; errorMessage: string; rss: number };
