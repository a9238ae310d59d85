import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/**
 * Debian's chromium (apt), or the one DBOPS_CHROMIUM_PATH names. Playwright's own browser
 * downloads are never used: they need hosts this project cannot reach.
 */
export function findChromium(): string | null {
  const candidates = [process.env.DBOPS_CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);
  return candidates.find((p) => existsSync(p)) ?? null;
}

/** The flags every run uses: no sandbox (root in CI), no GPU, no traffic of the browser's own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless chromium with a fresh profile directory, removed on close. */
export async function launchBrowser(executablePath: string, viewport = { width: 1366, height: 768 }): Promise<TestBrowser> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'dbops-chromium-'));
  // launchPersistentContext passes --user-data-dir itself: the profile is this fresh directory.
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_ARGS, viewport, timeout: 60_000 });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
