/**
 * Lets timers and I/O run before the caller goes on. PGlite executes statements synchronously
 * (WASM) and resolves them as promise jobs, so a chain of awaited transactions never hands the
 * event loop to anything else: without this, a loop of short transactions holds every request
 * of the local runtime as long as one long transaction would.
 */
export const turnEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
