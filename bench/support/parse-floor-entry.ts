// The floor under `dbops lint` set by its parser: a whole process that starts Node, loads
// libpg-query's WebAssembly parser exactly as the CLI does (same driver, same V8 flags), reads
// every file under the current directory whose name matches argv[2] (default `up.sql`) and parses
// each into its tree, then exits. No configuration, no rules, no report. bench/cli-lint.ts bundles
// this with esbuild like the CLI and times it beside `dbops lint` and squawk: when this alone is
// slower than squawk's whole run, no work on the rules or the CLI around the parser can win.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
setFlagsFromString('--max-opt=1');

const { ensureParser, parseTreeSync } = await import('../../packages/core/src/pg/parser');
const ready = ensureParser();
const name = process.argv[2] ?? 'up.sql';
const files: string[] = [];
const walk = (dir: string): void => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(path.join(dir, e.name));
    else if (e.name === name) files.push(path.join(dir, e.name));
  }
};
walk('.');
await ready;
let statements = 0;
for (const f of files.sort()) {
  try {
    statements += parseTreeSync(readFileSync(f, 'utf8')).stmts?.length ?? 0;
  } catch {
    // A file the parser refuses still cost its parse; lint reports it, the floor only counts.
  }
}
if (process.env.PARSE_FLOOR_VERBOSE) console.log(`${files.length} files, ${statements} statements`);
