#!/usr/bin/env node
// `npx dbops`: the esbuild bundle (dist/, built by `npm run build -w @dbops/cli` and before
// publishing) starts in a fraction of tsx's time; in the workspace without a build, the
// TypeScript sources run through tsx.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/dbops.mjs', import.meta.url);
if (existsSync(bundle) && process.env.DBOPS_CLI_FROM_SOURCE !== '1') {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/entry.ts');
}
