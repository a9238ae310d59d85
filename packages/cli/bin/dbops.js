#!/usr/bin/env node
// `npx dbops`: the esbuild bundle (dist/, built on `npm install` by the repository's `prepare`
// and before publishing) starts in a fraction of tsx's time. In the workspace, a bundle older
// than any of its sources (an edit since the last build) is not run: the TypeScript sources run
// through tsx instead, so a command never answers with yesterday's code.
import { existsSync, readFileSync, statSync } from 'node:fs';

const bundle = new URL('../dist/dbops.mjs', import.meta.url);

function bundleIsCurrent() {
  if (!existsSync(bundle) || process.env.DBOPS_CLI_FROM_SOURCE === '1') return false;
  // Published: no sources beside the bundle, nothing to compare with.
  if (!existsSync(new URL('../src', import.meta.url))) return true;
  try {
    const builtAt = statSync(bundle).mtimeMs;
    const dist = new URL('../dist/', import.meta.url);
    const sources = JSON.parse(readFileSync(new URL('sources.json', dist), 'utf8'));
    return sources.every((source) => statSync(new URL(source, dist)).mtimeMs <= builtAt);
  } catch {
    return false; // a build without its list of sources, or a source since removed
  }
}

if (bundleIsCurrent()) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/entry.ts');
}
