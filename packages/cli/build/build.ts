// Bundles the CLI into dist/ with esbuild: one file for the lint path, the service commands in
// chunks loaded only when they run. The parser (libpg-query's JavaScript glue) is bundled too
// and its .wasm copied beside the chunks, so dist/ needs no node_modules at all: importing the
// package through Node's CommonJS interop cost a module-lexer pass and a package resolution on
// every start (see docs/benchmarks.md, #19).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { devNull, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };

/** libpg-query's WebAssembly parser, which its glue loads from `${__dirname}/libpg-query.wasm`. */
const parserWasm = path.join(path.dirname(createRequire(import.meta.url).resolve('libpg-query')), 'libpg-query.wasm');

/**
 * Builds into `outdir` (default `packages/cli/dist`, which bin/dbops.js loads); returns the entry
 * file. `entry` swaps the CLI's entry for another on the same build (bench/cli-lint.ts bundles its
 * parser-only floor this way, so both start alike).
 */
export async function buildCli(outdir = `${root}dist`, entry = `${root}src/entry.ts`): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { dbops: entry },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    define: { __DBOPS_CLI_VERSION__: JSON.stringify(version) },
    // Bundled CommonJS (picomatch, the parser's glue) calls require() and reads __dirname (where
    // the glue finds its .wasm, copied beside the chunks below); give the ESM chunks both.
    banner: {
      js: [
        "import { createRequire as __dbopsCreateRequire } from 'node:module';",
        "import { dirname as __dbopsDirname } from 'node:path';",
        "import { fileURLToPath as __dbopsFileUrlToPath } from 'node:url';",
        'const require = __dbopsCreateRequire(import.meta.url);',
        'const __filename = __dbopsFileUrlToPath(import.meta.url);',
        'const __dirname = __dbopsDirname(__filename);',
      ].join(' '),
    },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  copyFileSync(parserWasm, path.join(outdir, 'libpg-query.wasm'));
  const inputs = Object.keys(result.metafile.inputs);
  if (entry === `${root}src/entry.ts`) inputs.push(...(await buildLintScript(outdir)));
  // The workspace's own sources in the bundle, for bin/dbops.js to tell a bundle older than
  // an edit (it then runs the sources). Dependencies change only with an install, which builds.
  const sources = [...new Set(inputs)].filter((input) => !input.includes('node_modules/')).map((input) => path.relative(outdir, path.resolve(input)));
  writeFileSync(path.join(outdir, 'sources.json'), JSON.stringify(sources));
  return `${outdir}/dbops.mjs`;
}

/**
 * `dist/lint.cjs`, the lint path as one CommonJS script, and `dist/lint.cache`, V8's code cache
 * of it after linting code-cache-sample.sql under the CLI's own flags (see src/lint-script.ts).
 * Returns the script's inputs.
 */
async function buildLintScript(outdir: string): Promise<string[]> {
  const result = await build({
    entryPoints: { lint: `${root}src/lint-entry.ts` },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // CommonJS has no import.meta: the few files that read import.meta.url get the script's own URL.
    define: { __DBOPS_CLI_VERSION__: JSON.stringify(version), 'import.meta.url': '__dbopsImportMetaUrl' },
    banner: { js: "const __dbopsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  const sample = mkdtempSync(path.join(tmpdir(), 'dbops-code-cache-'));
  try {
    copyFileSync(`${root}build/code-cache-sample.sql`, path.join(sample, 'sample.sql'));
    // The terminal and markdown reporters, so their functions are in the cache too; an environment
    // of its own, so that a build inside GitHub Actions writes nothing to the job's summary.
    const args = ['lint', '-r', 'tty', '-o', devNull, '--markdown-file', devNull, 'sample.sql'];
    const run = spawnSync(process.execPath, [path.join(outdir, 'dbops.mjs'), ...args], {
      cwd: sample,
      env: { PATH: process.env.PATH ?? '', DBOPS_CLI_SAVE_CODE_CACHE: '1' },
      encoding: 'utf8',
    });
    // The sample has findings (exit 1); anything else means the script bundle does not run.
    if (run.status !== 1) throw new Error(`the lint script's sample run exited ${run.status}: ${run.stderr}`);
  } finally {
    rmSync(sample, { recursive: true, force: true });
  }
  return Object.keys(result.metafile.inputs);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli();
