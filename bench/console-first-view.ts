/**
 * First view of the web console from the local runtime, in Debian's chromium: how long from
 * navigation start until the sign-in form is rendered and usable (the app's `dbops:first-view`
 * mark, set right after Preact's synchronous first render), plus first contentful paint and the
 * bytes transferred. Cold = a fresh browser profile per run (nothing cached); warm = a reload.
 *
 *   npx tsx bench/console-first-view.ts [--runs 7]
 */
import { ensureConsoleBuilt } from '@dbops/web/build';
import { startLocalRuntime } from '@dbops/local';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { findChromium, launchBrowser } from '../test/support/browser';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1] || 7);

interface Sample {
  firstView: number;
  fcp: number;
  responseEnd: number;
  bytes: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

// Evaluated in the page (a string: this script is type-checked without DOM types).
const READ_TIMINGS = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const mark = performance.getEntriesByName('dbops:first-view')[0];
  const bytes = performance.getEntriesByType('resource').reduce((s, r) => s + r.transferSize, nav.transferSize);
  return { firstView: mark.startTime, fcp: fcp ? fcp.startTime : NaN, responseEnd: nav.responseEnd, bytes };
})()`;

const chromiumPath = findChromium();
if (!chromiumPath) {
  console.error('no chromium: apt-get install chromium (or set DBOPS_CHROMIUM_PATH)');
  process.exit(1);
}
await ensureConsoleBuilt();
const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-console-'));
const runtime = await startLocalRuntime({ port: 0, inMemoryState: true, env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent' } });
const cold: Sample[] = [];
const warm: Sample[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const browser = await launchBrowser(chromiumPath);
    try {
      const page = await browser.context.newPage();
      await page.goto(`${runtime.origin}/`, { waitUntil: 'load' });
      await page.getByLabel('API key or JWT').waitFor();
      await page.waitForTimeout(100); // let the paint timing entry land
      cold.push((await page.evaluate(READ_TIMINGS)) as Sample);
      await page.reload({ waitUntil: 'load' });
      await page.getByLabel('API key or JWT').waitFor();
      await page.waitForTimeout(100);
      warm.push((await page.evaluate(READ_TIMINGS)) as Sample);
    } finally {
      await browser.close();
    }
  }
} finally {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
}

const row = (label: string, xs: Sample[], k: keyof Sample) =>
  `| ${label} | ${median(xs.map((s) => s[k])).toFixed(1)} | ${p95(xs.map((s) => s[k])).toFixed(1)} |`;
process.stdout.write(
  [
    `console first view, ${RUNS} runs, ${new Date().toISOString()}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    '',
    '| Figure (ms from navigation start) | median | p95 |',
    '|---|---|---|',
    row('cold: HTML received (responseEnd)', cold, 'responseEnd'),
    row('cold: first contentful paint', cold, 'fcp'),
    row('cold: sign-in form rendered and usable', cold, 'firstView'),
    row('warm (reload): sign-in form rendered and usable', warm, 'firstView'),
    '',
    `bytes transferred on a cold load: ${median(cold.map((s) => s.bytes))}`,
    '',
  ].join('\n'),
);
