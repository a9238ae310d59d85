#!/usr/bin/env node
// The static checks `npm test` runs before the tests: type checks, the import rules, ESLint and
// Prettier. Each is single-threaded and they share nothing, so they run side by side (one per
// core) instead of one after another: about half a minute less on CI's two cores. Output is held
// per check and printed whole, so a failing check reads as it would alone.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const CHECKS = [
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json']],
  ['eslint', 'npx', ['eslint', '.']],
  ['prettier', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']],
  ['typecheck (console)', 'npx', ['tsc', '-p', 'packages/web/tsconfig.json']],
  ['imports', process.execPath, ['scripts/check-imports.mjs']],
];

/** Runs one check to its end: its name, exit code and everything it printed. */
function run([name, command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ name, code: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output }));
  });
}

const queue = [...CHECKS];
const results = [];
await Promise.all(
  Array.from({ length: Math.max(1, Math.min(availableParallelism(), CHECKS.length)) }, async () => {
    for (let check = queue.shift(); check; check = queue.shift()) {
      const result = await run(check);
      if (result.output.trim()) process.stdout.write(`${result.output.trimEnd()}\n`);
      results.push(result);
    }
  }),
);
const failed = results.filter((r) => r.code !== 0);
for (const f of failed) process.stderr.write(`check failed: ${f.name} (exit ${f.code})\n`);
process.exit(failed.length > 0 ? 1 : 0);
