import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { precompileParser } from './lint/precompile-parser';
import { loadLintScript } from './lint-script';

// The parser is a 1 MB WebAssembly module. For one CLI run, V8's baseline compiler (Liftoff)
// is enough: optimising it in the background (TurboFan tier-up) costs more CPU than a run
// saves (about a third of `dbops lint`'s CPU time on lemmy's 342 migrations, see
// docs/benchmarks.md). Set before the parser loads; the long-running service is not affected.
setFlagsFromString('--liftoff-only');
// The same holds for JavaScript: a lint run is over before TurboFan's optimised code pays for its
// compilation on another thread. Ignition and Sparkplug only (--max-opt=1) took about a quarter
// off the CPU time of linting lemmy, with the same output.
setFlagsFromString('--max-opt=1');

// `dbops lint` from the bundle runs its script bundle with V8's code cache (lint-script.ts), the
// parser's WebAssembly compiling meanwhile on V8's background threads (it sets when the first file
// can be parsed); from the sources, or without that bundle, it runs like every other command.
const dist = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const parser = process.argv[2] === 'lint' ? precompileParser(dist('./libpg-query.wasm')) : undefined;
const lint = process.argv[2] === 'lint' ? loadLintScript(dist('./lint.cjs'), dist('./lint.cache')) : undefined;
if (lint) {
  await lint.lintMain(process.argv.slice(3), parser);
  // The build's sample run (build/build.ts) stores the cache.
  if (process.env.DBOPS_CLI_SAVE_CODE_CACHE === '1') lint.saveCache();
} else {
  const { main } = await import('./main');
  await main();
}
