import { readFileSync } from 'node:fs';

/** V8's WebAssembly API: the ES2023 lib does not declare it as a value. */
const webAssembly = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly;

/**
 * Starts compiling the parser's WebAssembly from `file` on V8's background threads, for the
 * bundle's entry to do before any other code loads (ensureParser takes the module). Undefined when
 * the file cannot be read: the parser's glue then loads its own copy as usual. A failed compile
 * is reported by ensureParser.
 */
export function precompileParser(file: string): Promise<object> | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const compiled = webAssembly.compile(bytes);
  compiled.catch(() => {});
  return compiled;
}
