import { setFlagsFromString } from 'node:v8';

// The parser is a 1 MB WebAssembly module. For one CLI run, V8's baseline compiler (Liftoff)
// is enough: optimising it in the background (TurboFan tier-up) costs more CPU than a run
// saves (about a third of `dbops lint`'s CPU time on lemmy's 342 migrations, see
// docs/benchmarks.md). Set before the parser loads; the long-running service is not affected.
setFlagsFromString('--liftoff-only');
// The same holds for JavaScript: a lint run is over before TurboFan's optimised code pays for its
// compilation on another thread. Ignition and Sparkplug only (--max-opt=1) took about a quarter
// off the CPU time of linting lemmy, with the same output.
setFlagsFromString('--max-opt=1');

const { main } = await import('./main');
await main();
