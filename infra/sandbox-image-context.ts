/**
 * Writes the Docker build context of the analysis function's image (infra/sandbox-image/Dockerfile)
 * and, with `--build`, builds and optionally pushes it. Plain Node: no SST globals.
 *
 *   npx tsx infra/sandbox-image-context.ts <dir> [--build <image:tag>] [--push]
 *
 * The context holds the handler bundled as every function is (infra/bundle.ts), the seed
 * preparation script, a package.json pinning the external packages and the PostgreSQL binaries of
 * each major (installed by npm inside the image, for the image's platform), and the Dockerfile.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleEntry } from './bundle';
import { HANDLERS_DIR } from './route-plan';
import { SANDBOX_IMAGE_HANDLERS, SANDBOX_IMAGE_MAJORS, sandboxImageDependencies } from './sandbox-image-plan';

export const SEED_SCRIPT = 'packages/functions/src/deploy/prepare-sandbox-seed.ts';
export const DOCKERFILE = 'infra/sandbox-image/Dockerfile';

export interface SandboxImageContext {
  dir: string;
  /** Bytes of the bundled handler. */
  handlerBytes: number;
  dependencies: Record<string, string>;
}

export async function writeSandboxImageContext(root: string, dir: string): Promise<SandboxImageContext> {
  await mkdir(dir, { recursive: true });
  const [handlerName] = SANDBOX_IMAGE_HANDLERS;
  const handler = await bundleEntry(`${HANDLERS_DIR}/${handlerName}.ts`, { root, outfile: path.join(dir, 'handler.mjs') });
  await bundleEntry(SEED_SCRIPT, { root, outfile: path.join(dir, 'prepare-seed.mjs') });
  const dependencies = sandboxImageDependencies(root);
  const pkg = { name: 'dbops-sandbox-image', private: true, type: 'module', dependencies };
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  await copyFile(path.join(root, DOCKERFILE), path.join(dir, 'Dockerfile'));
  return { dir, handlerBytes: handler.bytes, dependencies };
}

/** `docker build` of the context for linux/amd64 (see SANDBOX_IMAGE_ARCHITECTURE), with the plan's majors. */
export function buildSandboxImage(dir: string, image: string, push: boolean): void {
  const args = ['build', '--platform', 'linux/amd64', '--build-arg', `MAJORS=${SANDBOX_IMAGE_MAJORS.join(',')}`, '--provenance=false', '-t', image, dir];
  execFileSync('docker', args, { stdio: 'inherit' });
  if (push) execFileSync('docker', ['push', image], { stdio: 'inherit' });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, ...rest] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: npx tsx infra/sandbox-image-context.ts <dir> [--build <image:tag>] [--push]');
    process.exit(2);
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const ctx = await writeSandboxImageContext(root, path.resolve(dir));
  console.log(`context written to ${ctx.dir} (handler ${(ctx.handlerBytes / 1024).toFixed(0)} kB; ${Object.keys(ctx.dependencies).join(', ')})`);
  const at = rest.indexOf('--build');
  if (at >= 0 && rest[at + 1]) buildSandboxImage(ctx.dir, rest[at + 1]!, rest.includes('--push'));
}
