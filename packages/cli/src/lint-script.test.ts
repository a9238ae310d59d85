import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLintScript } from './lint-script';

let dir: string;
const script = (name = 'lint.cjs'): string => path.join(dir, name);
const cache = (): string => path.join(dir, 'lint.cache');

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'dbops-lint-script-'));
  // A stand-in for dist/lint.cjs: CommonJS, a require, and the one export the bin calls.
  writeFileSync(
    script(),
    "const path = require('node:path');\nexports.lintMain = async (argv) => { globalThis.__lintScriptSeen = [path.basename(__filename), ...argv]; };\n",
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadLintScript', () => {
  it('runs the script as CommonJS, then takes the cache it saved', async () => {
    const first = loadLintScript(script(), cache())!;
    expect(first.cacheUsed).toBe(false);
    await first.lintMain(['a.sql']);
    expect((globalThis as { __lintScriptSeen?: string[] }).__lintScriptSeen).toEqual(['lint.cjs', 'a.sql']);
    first.saveCache();
    // The same source under another name: V8 reads the stored cache rather than this process's own.
    copyFileSync(script(), script('copy.cjs'));
    expect(loadLintScript(script('copy.cjs'), cache())!.cacheUsed).toBe(true);
  });

  it('compiles as usual when V8 rejects the cache', () => {
    writeFileSync(cache(), 'not a code cache');
    copyFileSync(script(), script('other.cjs'));
    const loaded = loadLintScript(script('other.cjs'), cache())!;
    expect(loaded.cacheUsed).toBe(false);
    expect(typeof loaded.lintMain).toBe('function');
  });

  it('is undefined without the script bundle (the sources run instead)', () => {
    expect(loadLintScript(path.join(dir, 'missing.cjs'), cache())).toBeUndefined();
  });
});
