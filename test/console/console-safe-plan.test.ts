import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport } from '@dbops/core/analysis';
import { findChromium, launchBrowser, type TestBrowser } from '../support/browser';
import { type ConnectedRuntime, startConnectedRuntime } from '../support/connections';
import { sql } from '../support/scratch-database';

// Issue #30 in the console: the safe plan beside the original, both lock timelines, and "Use the
// safe plan" running the plan (its token, its combined_script) through the execute panel, in a
// real chromium against the local runtime and a real PostgreSQL.

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('console safe-plan tests skipped: no chromium found (apt-get install chromium, or set DBOPS_CHROMIUM_PATH)');

const SHOTS = process.env.DBOPS_SCREENSHOT_DIR ?? path.join(tmpdir(), 'dbops-console-screenshots');
const SLOW = 240_000;

/** Large enough that an index build and an UPDATE of a third of the rows block writes for long (the plans' bound). */
const SETUP = `
  CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int NOT NULL, note text NOT NULL, code text NOT NULL, amount int);
  INSERT INTO orders SELECT g, 1 + g % 1000, 'note ' || g, 'c' || g, g % 50 FROM generate_series(1, 3000) g;
  -- Takes the name PostgreSQL gives an unnamed index on (amount): it would name that one orders_amount_idx1.
  CREATE INDEX orders_amount_idx ON orders (customer_id);
  ANALYZE;
`;

const UPDATE = 'UPDATE orders SET amount = amount + 1 WHERE customer_id % 3 = 0';
const MIGRATION = `CREATE INDEX ON orders (note);\n${UPDATE};`;

describe.skipIf(!chromiumPath)('safe plans in the web console', () => {
  let f: ConnectedRuntime;
  let browser: TestBrowser;
  let page: Page;
  const consoleErrors: string[] = [];

  /** Analyzes in the page and returns the report the page received. */
  async function analyzeInPage(text: string): Promise<AnalysisReport> {
    await page.getByLabel('Statements, separated by semicolons').fill(text);
    const answer = page.waitForResponse((r) => r.url().endsWith('/migrations/analyze') && r.request().method() === 'POST', { timeout: SLOW });
    await page.getByRole('button', { name: 'Analyze' }).click();
    const report = (await (await answer).json()) as AnalysisReport;
    await page.getByTestId('report').waitFor();
    return report;
  }

  /** Chooses the safe plan, approves it and returns the body the page sent to POST /migrations/execute. */
  async function runSafePlan(plan: { combined_script: string }): Promise<{ approval_token: string; sql: string; connection_id: string }> {
    await page.getByRole('button', { name: 'Use the safe plan' }).click();
    await page.getByRole('heading', { name: 'Approve and run the safe plan' }).waitFor();
    // The read-only text shown for approval is the plan's script, no longer the analyzed SQL.
    expect(await page.getByLabel('Safe plan to run, exactly as proved (read-only)').inputValue()).toBe(plan.combined_script);
    await page.getByLabel(/I reviewed this report and approve running this safe plan/).check();
    const sent = page.waitForRequest((r) => r.url().endsWith('/migrations/execute') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Execute safe plan' }).click();
    return (await sent).postDataJSON() as { approval_token: string; sql: string; connection_id: string };
  }

  /** The page logged no error, and every control (the safe plan's and its status's included) has a label or a name. */
  async function expectCleanPage(): Promise<void> {
    expect(consoleErrors).toEqual([]);
    // Runs in the page (a string: this file is type-checked without DOM types).
    const unlabelled = await page.evaluate(`[...document.querySelectorAll('input, select, textarea, button, progress')]
      .filter((e) => {
        if (e.type === 'hidden') return false;
        const labelled = (e.labels?.length ?? 0) > 0 || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby');
        return e.tagName === 'BUTTON' ? !(e.textContent ?? '').trim() && !labelled : !labelled;
      })
      .map((e) => e.outerHTML.slice(0, 80))`);
    expect(unlabelled).toEqual([]);
  }

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    // The proof runs two more sandboxes: a wider gateway window keeps a busy machine from
    // turning the analysis into 'did not finish'. 3,000 rows count as a large table here
    // (DBOPS_SAFE_PLAN_MIN_ROWS), which keeps the test quick; batches of 400 rows: a handful per step.
    f = await startConnectedRuntime({
      prefix: 'consolesafe',
      user: 'console-safe-user',
      setupSql: SETUP,
      env: { DBOPS_GATEWAY_TIMEOUT_SECONDS: '120', DBOPS_SAFE_PLAN_BATCH_SIZE: '400', DBOPS_SAFE_PLAN_MIN_ROWS: '2000' },
    });
    const intro = await f.t.request('POST', `/connections/${f.connectionId}/introspect`, { apiKey: f.apiKey });
    expect(intro.status, intro.text).toBe(200);
    browser = await launchBrowser(chromiumPath!);
    page = await browser.context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(`${f.t.runtime.origin}/`);
    await page.getByLabel('API key or JWT').fill(f.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
    await page.goto(`${f.t.runtime.origin}/#/c/${f.connectionId}/review`);
    await page.getByRole('heading', { name: 'Migration review', level: 1 }).waitFor();
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  it('says plainly why no safe plan is offered', { timeout: SLOW }, async () => {
    const report = await analyzeInPage('CREATE INDEX ON orders (amount)');
    expect(report.safe_plan).toBeNull();
    const reason = page.getByTestId('safe-plan-reason');
    expect(await reason.textContent()).toBe(`No safe plan is offered: ${report.safe_plan_reason}`);
    expect(report.safe_plan_reason).toMatch(/^a safe plan was drafted but not offered: /);
    expect(await page.getByRole('button', { name: 'Use the safe plan' }).count()).toBe(0);
  });

  it('shows the plan beside the original and runs the plan, not the original, to completed with batched progress', { timeout: SLOW }, async () => {
    const report = await analyzeInPage(MIGRATION);
    const plan = report.safe_plan!;
    expect(plan, report.safe_plan_reason ?? '').not.toBeNull();
    expect(plan.equivalent).toBe(true);

    // The section: heading, the proof's explanation, each step with its marks.
    const section = page.locator('#safe-plan');
    await section.getByRole('heading', { name: 'Safe plan', level: 3 }).waitFor();
    expect(await page.getByTestId('safe-plan-explanation').textContent()).toBe(plan.explanation);
    const steps = page.getByTestId('safe-plan-steps').getByRole('listitem');
    expect(await steps.count()).toBe(plan.steps.length);
    const index = plan.steps.find((s) => s.sql.includes('CREATE INDEX CONCURRENTLY'))!;
    const batched = plan.steps.find((s) => s.batched)!;
    expect(index).toBeDefined();
    expect(batched.sql).toContain(UPDATE);
    const indexStep = steps.nth(index.index);
    expect(await indexStep.locator('pre.sql').textContent()).toBe(index.sql);
    expect(await indexStep.textContent()).toContain('outside a transaction');
    expect(await indexStep.textContent()).toContain('SHARE UPDATE EXCLUSIVE');
    const batchedStep = steps.nth(batched.index);
    expect(await batchedStep.textContent()).toContain('in its own transaction');
    expect(await batchedStep.locator('.tag.batched').textContent()).toBe('batched');

    // Both timelines side by side: the original's SHARE lock (writes wait) against the plan's steps on the same table.
    const original = page.getByRole('list', { name: 'Original: locks by table' });
    const planned = page.getByRole('list', { name: 'Safe plan: locks by table' });
    expect(await original.getByRole('img', { name: /^Statement 0: SHARE on public\.orders/ }).count()).toBe(1);
    expect(await planned.getByRole('img', { name: new RegExp(`^Step ${index.index}: SHARE UPDATE EXCLUSIVE on public\\.orders`) }).count()).toBe(1);
    const [a, b] = await Promise.all([original.boundingBox(), planned.boundingBox()]);
    expect(Math.abs(a!.y - b!.y)).toBeLessThan(5); // beside, not below
    expect(b!.x).toBeGreaterThan(a!.x + a!.width / 2);
    await page.locator('#safe-plan').screenshot({ path: path.join(SHOTS, 'safe-plan.png') });
    // A laptop screen and a bit below: the timelines stay side by side or stack, nothing scrolls sideways.
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 720 });
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    }
    await page.setViewportSize({ width: 1366, height: 768 });

    // The rows the UPDATE changes, counted before the run.
    const [{ updated }] = (await sql<{ updated: number }>(f.db.url, 'SELECT count(*)::int AS updated FROM orders WHERE customer_id % 3 = 0')) as [
      { updated: number },
    ];

    // "Use the safe plan": the panel now holds the plan's script, and the page sends the plan's token and text.
    const sent = await runSafePlan(plan);
    expect(sent).toEqual({ approval_token: plan.approval_token, sql: plan.combined_script, connection_id: f.connectionId });
    expect(sent.approval_token).not.toBe(report.approval_token);

    await expect.poll(() => page.getByTestId('request-state').textContent(), { timeout: 120_000 }).toBe('completed');
    const rows = `${updated.toLocaleString('en-US')} of ${updated.toLocaleString('en-US')} rows (100%)`;
    expect(await page.getByTestId('batch-rows').textContent()).toBe(rows);
    expect(await page.getByLabel('Batched step: rows done').getAttribute('value')).toBe(String(updated));
    await page.locator('#execute').screenshot({ path: path.join(SHOTS, 'safe-plan-run.png') });

    // The service ran the plan's text, and the target has what the plan builds: a valid index, the rows updated.
    const requestId = (await page.getByTestId('request-status').locator('code').first().textContent())!;
    const status = await f.t.request<Record<string, any>>('GET', `/migrations/requests/${requestId}`, { apiKey: f.apiKey });
    expect(status.body).toMatchObject({ status: 'completed', sql: plan.combined_script, rows_done: updated, rows_total: updated });
    expect(await sql(f.db.url, "SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = 'public.orders_note_idx'::regclass")).toEqual([
      { valid: true },
    ]);
    expect(await sql(f.db.url, 'SELECT count(*)::int AS n FROM orders WHERE customer_id % 3 = 0 AND amount <> (id % 50) + 1')).toEqual([{ n: 0 }]);
    await expectCleanPage();
  });

  it('names the failed step, what it left and the cleanup SQL when the plan fails', { timeout: SLOW }, async () => {
    const report = await analyzeInPage('CREATE UNIQUE INDEX orders_code_key ON orders (code)');
    const plan = report.safe_plan!;
    expect(plan, report.safe_plan_reason ?? '').not.toBeNull();
    expect(plan.steps).toEqual([
      expect.objectContaining({ index: 0, sql: 'CREATE UNIQUE INDEX CONCURRENTLY orders_code_key ON orders (code)', transactional: false }),
    ]);
    // After the review the data changes: the concurrent build meets a duplicate and leaves its INVALID index.
    await sql(f.db.url, "INSERT INTO orders VALUES (3001, 1, 'dup', 'c1', 0)");

    const sent = await runSafePlan(plan);
    expect(sent.sql).toBe(plan.combined_script);
    await expect.poll(() => page.getByTestId('request-state').textContent(), { timeout: 120_000 }).toBe('failed');
    const failure = page.getByTestId('plan-failure');
    expect(await failure.textContent()).toContain('Step 0 failed; no step ran before it.');
    const leftovers = await page.getByTestId('plan-leftovers').textContent();
    expect(leftovers).toContain('INVALID index public.orders_code_key');
    expect(leftovers).not.toContain('committed'); // the script's SET lock_timeout is no step and leaves nothing
    expect(await page.getByTestId('plan-cleanup').textContent()).toContain('DROP INDEX CONCURRENTLY public.orders_code_key');
    await page.getByRole('button', { name: 'Copy cleanup' }).waitFor();
    await page.locator('#execute').screenshot({ path: path.join(SHOTS, 'safe-plan-failed.png') });
    expect(await sql(f.db.url, "SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = 'public.orders_code_key'::regclass")).toEqual([{ valid: false }]);
    await expectCleanPage();
  });
});
