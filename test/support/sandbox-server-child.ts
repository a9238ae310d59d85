/**
 * A process that starts an embedded sandbox server under the directory given as its argument,
 * prints the run directory, and waits to be killed (`test/analysis/sandbox-run-dirs.test.ts`).
 */
import { startEmbeddedServer } from '../../packages/core/src/analysis/sandbox/embedded/embedded-server';
import { findPgBinaries } from '../../packages/core/src/analysis/sandbox/embedded/pg-binaries';

const server = await startEmbeddedServer(findPgBinaries(17)!, process.argv[2]);
process.stdout.write(`up ${server.port}\n`);
setInterval(() => undefined, 60_000);
