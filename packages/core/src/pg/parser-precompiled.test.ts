import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

describe('ensureParser with the WebAssembly already compiled (the CLI bundle starts that early)', () => {
  it('instantiates the given module and parses as usual', async () => {
    const wasm = path.join(path.dirname(createRequire(import.meta.url).resolve('libpg-query')), 'libpg-query.wasm');
    const compile = (globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<object> } }).WebAssembly.compile;
    const compiled = compile(readFileSync(wasm));
    let awaited = false;
    // A thenable that notes being awaited: the module given is the one instantiated.
    const given = { then: (resolve: (m: object) => unknown, reject: (e: unknown) => unknown) => ((awaited = true), compiled.then(resolve, reject)) };
    // A fresh copy of the module: ensureParser loads once per module, and its first call decides how.
    vi.resetModules();
    const { ensureParser, parseTreeSync } = await import('./parser');
    await ensureParser(given as unknown as Promise<object>);
    expect(awaited).toBe(true);
    expect(parseTreeSync('SELECT 1; ALTER TABLE t ADD COLUMN c int').stmts).toHaveLength(2);
  });
});
