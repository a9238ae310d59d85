/**
 * Bundles one Lambda entry the way SST's Node runtime does for our functions (esbuild, ESM,
 * node22, minified, a `require` shim for CommonJS dependencies), so the benchmark and the tests
 * measure what would be deployed. Plain Node: no SST globals.
 */
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import path from 'node:path';
import { HEAVY_PACKAGES, type HeavyPackage } from './route-plan';

/** Lambda's runtime for every function (see infra/api.ts). */
export const NODE_TARGET = 'node22';

/**
 * Never bundled: the heavy packages (shipped through SST's `nodejs.install`) and `pg-native`,
 * an optional native binding of `pg` that we do not use. The AWS SDK is bundled on purpose: it
 * pins the SDK version we test with instead of whatever the Lambda runtime ships, and a single
 * bundled file loads faster than the runtime's many-file SDK.
 */
export const EXTERNALS: readonly string[] = [...HEAVY_PACKAGES, 'pg-native'];

/** ESM output has no `require`; CommonJS dependencies inside the bundle need one. */
export const REQUIRE_BANNER = "import { createRequire as topLevelCreateRequire } from 'module';const require = topLevelCreateRequire(import.meta.url);";

export interface BundleResult {
  entry: string;
  /** The bundled JavaScript (present when `write` is false). */
  code?: Uint8Array;
  /** Bytes of the bundled JavaScript. */
  bytes: number;
  /** Heavy packages the entry imports (they must be installed next to the bundle). */
  heavy: HeavyPackage[];
  /** Input bytes per top-level package, largest first (for the size report). */
  topInputs: { name: string; bytes: number }[];
}

const packageOf = (input: string): string => {
  const i = input.lastIndexOf('node_modules/');
  if (i < 0) return input.startsWith('packages/') ? input.split('/').slice(0, 2).join('/') : input;
  const rest = input.slice(i + 'node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
};

const heavyOf = (outputs: readonly Metafile['outputs'][string][]): HeavyPackage[] => {
  const found = new Set<HeavyPackage>();
  // The output's imports, not the inputs': an input esbuild parsed but tree-shook away (a
  // feature entry re-exports more than one function uses) ships nothing.
  for (const output of outputs) {
    for (const imp of output.imports) {
      if (!imp.external) continue;
      const pkg = HEAVY_PACKAGES.find((h) => imp.path === h || imp.path.startsWith(`${h}/`));
      if (pkg) found.add(pkg);
    }
  }
  return HEAVY_PACKAGES.filter((h) => found.has(h));
};

/** SST's esbuild options for our functions, shared by {@link bundleEntry} and {@link bundleEntries}. */
const sstOptions = (root: string, minify: boolean): BuildOptions => ({
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: NODE_TARGET,
  mainFields: ['module', 'main'],
  minify,
  sourcemap: false,
  external: [...EXTERNALS],
  banner: { js: REQUIRE_BANNER },
  metafile: true,
  logLevel: 'silent',
});

/**
 * Bundles `entry` (a path relative to `root`). With `outfile` the bundle is written there;
 * otherwise it is kept in memory.
 */
export async function bundleEntry(entry: string, options: { root: string; outfile?: string; minify?: boolean; plugins?: Plugin[] }): Promise<BundleResult> {
  const result = await build({
    ...sstOptions(options.root, options.minify ?? true),
    entryPoints: [entry],
    plugins: options.plugins ?? [],
    write: options.outfile !== undefined,
    ...(options.outfile ? { outfile: options.outfile } : { outdir: path.join(options.root, '.bundle-tmp') }),
  });
  return resultOf(entry, Object.values(result.metafile!.outputs), result.outputFiles?.[0]?.contents);
}

/** What one entry's outputs (without code splitting: one file) weigh, import and ship. */
function resultOf(entry: string, outputs: readonly Metafile['outputs'][string][], code: Uint8Array | undefined): BundleResult {
  const bytes = outputs.reduce((n, o) => n + o.bytes, 0);
  const perPackage = new Map<string, number>();
  for (const output of outputs) {
    for (const [input, info] of Object.entries(output.inputs)) {
      const name = packageOf(input);
      perPackage.set(name, (perPackage.get(name) ?? 0) + info.bytesInOutput);
    }
  }
  const topInputs = [...perPackage.entries()].map(([name, b]) => ({ name, bytes: b })).sort((a, b) => b.bytes - a.bytes);
  return { entry, ...(code ? { code } : {}), bytes, heavy: heavyOf(outputs), topInputs };
}

/**
 * {@link bundleEntry} for several entries in one esbuild run, kept in memory: the shared modules
 * are parsed once. Without code splitting each output is what `bundleEntry` makes of its entry
 * alone. The results follow `entries`' order.
 */
export async function bundleInMemory(entries: readonly string[], options: { root: string }): Promise<BundleResult[]> {
  const result = await build({
    ...sstOptions(options.root, true),
    entryPoints: entries.map((entry, i) => ({ in: entry, out: `entry-${i}` })),
    write: false,
    outdir: path.join(options.root, '.bundle-tmp'),
  });
  const outputs = Object.entries(result.metafile!.outputs);
  return entries.map((entry, i) => {
    const [file, output] = outputs.find(([name]) => path.basename(name) === `entry-${i}.js`)!;
    const code = result.outputFiles?.find((f) => f.path === path.join(options.root, file))?.contents;
    return resultOf(entry, [output], code);
  });
}

/**
 * Writes several bundles in one esbuild run: `out` is the output path of each entry, relative to
 * `outdir` and without extension (`<function>/index` gives `<function>/index.mjs`). Without code
 * splitting each output is the same file {@link bundleEntry} writes for its entry alone; one run
 * parses the shared modules once, which is what makes `npm run start:cloud` start in seconds.
 */
export async function bundleEntries(entries: readonly { entry: string; out: string }[], options: { root: string; outdir: string }): Promise<void> {
  await build({
    ...sstOptions(options.root, true),
    entryPoints: entries.map((e) => ({ in: e.entry, out: e.out })),
    outdir: options.outdir,
    outExtension: { '.js': '.mjs' },
    metafile: false,
    write: true,
  });
}
