import { ensureParser } from '@dbops/core/pg';

/**
 * Starts loading the parser now, so that it overlaps other work; `lintFiles` awaits it (and
 * reports a failure). A module of its own so that `run` can start it before the lint command's
 * modules load: its WebAssembly then compiles on V8's background threads meanwhile.
 */
export function loadParser(): void {
  ensureParser().catch(() => {});
}
