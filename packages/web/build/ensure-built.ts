import { existsSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The console's package directory and its built output. */
export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CONSOLE_DIST = path.join(WEB_ROOT, 'dist');

async function newestMtime(p: string): Promise<number> {
  const s = await stat(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = s.mtimeMs;
  for (const entry of await readdir(p)) newest = Math.max(newest, await newestMtime(path.join(p, entry)));
  return newest;
}

/** True when dist/ is missing or older than a source file of the console. */
export async function consoleIsStale(): Promise<boolean> {
  const built = path.join(CONSOLE_DIST, 'index.html');
  if (!existsSync(built)) return true;
  const sources = await Promise.all(['src', 'index.html', 'vite.config.ts'].map((p) => newestMtime(path.join(WEB_ROOT, p))));
  return Math.max(...sources) > (await stat(built)).mtimeMs;
}

/**
 * Builds the console into dist/ when it is missing or stale (`npm start` and `npm test` call
 * this, so a fresh clone works with `npm install && npm start`). It builds into a temporary
 * directory and swaps it in, so a runtime serving the old build never sees half a new one.
 * Vite is imported only here, never by the service's own code.
 */
export async function ensureConsoleBuilt(options: { force?: boolean; env?: Record<string, string> } = {}): Promise<{ built: boolean; dir: string }> {
  if (!options.force && !(await consoleIsStale())) return { built: false, dir: CONSOLE_DIST };
  const { build } = await import('vite');
  const tmp = path.join(WEB_ROOT, `.dist-${process.pid}-${Date.now()}`);
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(options.env ?? {})) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  try {
    await build({ root: WEB_ROOT, configFile: path.join(WEB_ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir: tmp, emptyOutDir: true } });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  await rm(CONSOLE_DIST, { recursive: true, force: true });
  await rename(tmp, CONSOLE_DIST);
  return { built: true, dir: CONSOLE_DIST };
}
