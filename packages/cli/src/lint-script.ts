import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';

// Node 20 keeps no compiled code between runs of an ES module (module.enableCompileCache is
// 22.1+), and a `dbops lint` run spent about a tenth of its time compiling its modules' functions,
// the same every run. A classic script can be given V8's code cache: the lint path is also built
// as one CommonJS script (`dist/lint.cjs`), and the build runs it once on a sample to store the
// cache (`dist/lint.cache`, functions compiled then included) beside it. V8 rejects a cache made by
// another V8 version, other flags or another source, and the script then compiles as usual.

/** The lint script's export (lint-entry.ts). */
interface LintExports {
  lintMain(argv: string[], parser?: Promise<object>): Promise<void>;
}

export interface LintScript {
  lintMain(argv: string[], parser?: Promise<object>): Promise<void>;
  /** V8 took the stored cache. */
  cacheUsed: boolean;
  /** Stores the cache of what has been compiled so far (the build, after its sample run). */
  saveCache(): void;
}

/** Loads the lint script bundle `file` with the code cache `cacheFile` if there is one; undefined without the bundle. */
export function loadLintScript(file: string, cacheFile: string): LintScript | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // no cache: compiled as any script
  }
  // The CommonJS wrapper, as Node's own loader writes it.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} as LintExports };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  return {
    lintMain: module.exports.lintMain,
    cacheUsed: cachedData !== undefined && !script.cachedDataRejected,
    saveCache: () => writeFileSync(cacheFile, script.createCachedData()),
  };
}
