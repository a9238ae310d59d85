// Bundles the CLI into dist/ with esbuild: one file for the lint path, the service commands in
// chunks loaded only when they run. libpg-query stays external (it loads its .wasm from its own
// package directory), so it is the bundle's one runtime dependency.
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };

/** Builds into `outdir` (default `packages/cli/dist`, which bin/dbops.js loads); returns the entry file. */
export async function buildCli(outdir = `${root}dist`): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { dbops: `${root}src/entry.ts` },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['libpg-query'],
    define: { __DBOPS_CLI_VERSION__: JSON.stringify(version) },
    // Bundled CommonJS (picomatch) calls require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __dbopsCreateRequire } from 'node:module'; const require = __dbopsCreateRequire(import.meta.url);" },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: false,
  });
  return `${outdir}/dbops.mjs`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli();
