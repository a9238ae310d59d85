import { ensureParser } from '@dbops/core/pg';

let precompiled: Promise<object> | undefined;

/** The parser's WebAssembly, compiling since the bundle's entry started it (precompile-parser.ts). */
export function usePrecompiledParser(compiled: Promise<object> | undefined): void {
  precompiled = compiled;
}

/**
 * Starts loading the parser now, so that it overlaps other work; `lintFiles` awaits it (and
 * reports a failure). A module of its own so that `run` can start it before the lint command's
 * modules load: its WebAssembly then compiles on V8's background threads meanwhile.
 */
export function loadParser(): void {
  ensureParser(precompiled).catch(() => {});
}
