// The helper thread of `dbops lint` (see lint-helper.ts): loads the parser from the module the
// main thread compiled, then takes files from the shared counter until none is left and sends
// back what it found.
import { parentPort } from 'node:worker_threads';
import { ensureParserFrom, type WasmModule } from '@dbops/core/pg';
import type { FileOutcome, HelperJob, HelperMessage } from './lint-helper';
import { lintOne } from './lint-files';

const port = parentPort!;
let moduleArrived: (module: WasmModule | null) => void = () => {};
// The module may come after the job when compiling it takes longer than expanding the globs.
const parser = new Promise<WasmModule | null>((resolve) => (moduleArrived = resolve)).then((module) =>
  module ? ensureParserFrom(module).then(() => true) : false,
);
parser.catch(() => {});

async function run(job: HelperJob): Promise<void> {
  const out: [number, FileOutcome][] = [];
  // Without a parser the helper takes no file: the main thread lints them all.
  if (await parser.catch(() => false)) {
    const options = { ...job.options, excludedRules: new Set(job.options.excludedRules) };
    for (let i = Atomics.add(job.next, 0, 1); i < job.files.length; i = Atomics.add(job.next, 0, 1)) out.push([i, lintOne(job.files[i]!, options)]);
  }
  port.postMessage(out);
  port.close();
}

port.on('message', (message: HelperMessage) => {
  if ('module' in message) moduleArrived(message.module);
  else void run(message);
});
