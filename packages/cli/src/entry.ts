import { setFlagsFromString } from 'node:v8';

// The parser is a 1 MB WebAssembly module. For one CLI run, V8's baseline compiler (Liftoff)
// is enough: optimising it in the background (TurboFan tier-up) costs more CPU than a run
// saves (about a third of `dbops lint`'s CPU time on lemmy's 342 migrations, see
// docs/benchmarks.md). Set before the parser loads; the long-running service is not affected.
setFlagsFromString('--liftoff-only');

const { main } = await import('./main');
await main();
