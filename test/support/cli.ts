import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../../packages/cli/build/build';

export const CLI_PACKAGE = fileURLToPath(new URL('../../packages/cli/', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Bundles the CLI as it is published (self-contained: the parser's glue and .wasm included), into
 * a directory of its own inside the package, so parallel test files do not share a build.
 */
export async function buildTestCli(): Promise<{ entry: string; remove(): void }> {
  const outdir = path.join(CLI_PACKAGE, `.test-dist-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  const entry = await buildCli(outdir);
  return { entry, remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** Runs the CLI as a child process; the environment is the caller's only (no inherited DBOPS_* or GITHUB_*). */
export function runCli(
  entry: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: options.cwd, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A temporary project directory with the given files (paths relative to it). */
export function project(files: Record<string, string>): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'dbops-cli-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
