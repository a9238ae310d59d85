import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_SCHEMA } from '../support/analysis';
import { findChromium, launchBrowser, type TestBrowser } from '../support/browser';
import { withSslDisabled } from '../support/connections';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const chromiumPath = findChromium();
if (!chromiumPath) {
  console.warn('console end-to-end tests skipped: no chromium found (apt-get install chromium, or set DBOPS_CHROMIUM_PATH)');
}

/** Screenshots of the main views; docs/console.md links the copies in docs/console/. */
const SHOTS = process.env.DBOPS_SCREENSHOT_DIR ?? path.join(tmpdir(), 'dbops-console-screenshots');

/** Creates a table and a column (the catalog diff shows both) and deletes old customers (a two-level ON DELETE CASCADE). */
const MIGRATION = `CREATE TABLE loyalty_tiers (id bigint PRIMARY KEY, name text NOT NULL);
ALTER TABLE customers ADD COLUMN tier_id bigint;
DELETE FROM customers WHERE created_at < now() - interval '5 years';`;

/** The service's clock; one test moves it back so that a token is issued nearly expired. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

describe.skipIf(!chromiumPath)('web console in a real browser', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let browser: TestBrowser;
  let page: Page;
  let apiKey: string;
  const consoleErrors: string[] = [];

  const connectionIdFromUrl = (): string => /#\/c\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
  /** The connection's stored documents, read through the API (not the page). */
  const storedDocuments = async (): Promise<string[]> =>
    (await t.request<{ data: { filename: string }[] }>('GET', `/connections/${connectionIdFromUrl()}/documents`, { apiKey })).body.data.map((d) => d.filename);
  const shot = (name: string, section?: string) =>
    section
      ? page.locator(section).screenshot({ path: path.join(SHOTS, `${name}.png`) })
      : page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [t, db] = await Promise.all([startTestRuntime({ runtime: { clock } }), createScratchDatabase('console')]);
    await sql(db.url, SHOP_SCHEMA);
    apiKey = await t.apiKey('console-user');
    browser = await launchBrowser(chromiumPath!);
    page = await browser.context.newPage();
    // The browser logs every non-2xx fetch as "Failed to load resource"; the tests cause some on purpose.
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await db?.drop();
  });

  it('refuses a credential the service does not accept', async () => {
    await page.goto(`${t.runtime.origin}/`);
    await page.getByLabel('API key or JWT').fill('dbo_not-a-real-key-0000000000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('refused');
    await shot('sign-in');
  });

  it('signs in with an API key kept in session storage, never in the URL', async () => {
    await page.getByLabel('API key or JWT').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
    expect(page.url()).not.toContain(apiKey);
    expect(await page.evaluate("sessionStorage.getItem('dbops.credential')")).toBe(apiKey);
    expect(await page.evaluate('localStorage.length')).toBe(0);
  });

  it('registers a connection and shows it reachable; an unreachable one says why', async () => {
    await page.getByLabel('Name').fill('shop');
    await page.getByLabel('Connection string').fill(withSslDisabled(db.url.replace(/\/[^/]+$/, '/no_such_database_console')));
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.getByTestId('reachability').textContent()).toContain('database_not_found');

    await page.getByLabel('Connection string').fill(withSslDisabled(db.url));
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.getByTestId('reachability').textContent()).toContain('Reachable');
    await page.getByRole('cell', { name: 'shop' }).waitFor();
    await shot('connections');
  });

  it('introspects and browses the schema with row estimates, sizes and foreign keys', async () => {
    await page.getByRole('link', { name: 'Schema' }).first().click();
    await page.getByRole('button', { name: 'Introspect now' }).click();
    const orders = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'public.orders' }) });
    await orders.waitFor();
    const text = await orders.textContent();
    expect(text).toContain('1,000');
    expect(text).toMatch(/\d+(\.\d)? kB/);
    expect(text).toContain('public.customers');
    await orders.getByRole('button', { name: 'public.orders' }).click();
    await page.getByText('customer_id').first().waitFor();
    await shot('schema');
  });

  it('analyzes a migration with a cascade and draws the blast radius', async () => {
    await page.getByRole('link', { name: 'Migration review' }).click();
    await page.getByLabel('Statements, separated by semicolons').fill(MIGRATION);
    await page.getByRole('button', { name: 'Analyze' }).click();
    await page.getByTestId('report').waitFor({ timeout: 60_000 });

    const score = await page.getByTestId('risk-score').getAttribute('aria-label');
    expect(score).toMatch(/^Risk score \d+ of 100, (low|medium|high|critical)$/);
    // The graph: customers modified, orders and order_items reached through ON DELETE CASCADE.
    const graph = page.getByTestId('blast-graph');
    for (const table of ['public.customers', 'public.orders', 'public.order_items']) {
      await expect.poll(() => graph.locator(`g.node[data-table="${table}"]`).count()).toBe(1);
    }
    expect(await graph.locator('g.node.cascade').count()).toBeGreaterThanOrEqual(2);
    expect(await graph.locator('g.edge text').allTextContents()).toContain('cascade');
    // Lock timeline lanes and the plain-words lock text.
    expect(await page.locator('.lane-name').allTextContents()).toEqual(expect.arrayContaining(['public.customers']));
    await page.getByText('Blocks everything on the table, reads included').first().waitFor();
    // Structured findings (issue #17) as the console reads them: rule id, location, safer alternative.
    const findings = page.locator('#findings');
    expect(await findings.locator('code').allTextContents()).toContain('require-lock-timeout');
    await findings.getByText('line 2, column 1').first().waitFor();
    await findings.getByText('Safer alternative').first().waitFor();
    // Rollback script and its copy button.
    expect(await page.getByLabel('Rollback script').textContent()).toContain('loyalty_tiers');
    await page.getByRole('button', { name: 'Copy rollback script' }).waitFor();
    await page.getByTestId('token-expiry').getByText('Approval token valid').waitFor();
    await shot('review');
    // Laptop screens and a bit below: the report reflows, nothing scrolls sideways.
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 720 });
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    }
    await shot('review-1024');
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it('approves and runs exactly the analyzed SQL and shows the catalog diff', async () => {
    expect(await page.getByTestId('approved-sql').inputValue()).toBe(MIGRATION);
    expect(await page.getByTestId('approved-sql').getAttribute('readonly')).not.toBeNull();
    const execute = page.getByRole('button', { name: 'Execute migration' });
    expect(await execute.isDisabled()).toBe(true);
    await page.getByLabel(/I reviewed this report/).check();
    await execute.click();
    await expect.poll(() => page.getByTestId('request-state').textContent(), { timeout: 30_000 }).toBe('completed');
    const diff = await page.getByTestId('catalog-diff').textContent();
    expect(diff).toMatch(/\+ table (public\.)?loyalty_tiers/);
    expect(diff).toMatch(/\+ column (public\.)?customers\.tier_id/);
    // The database really changed.
    expect(await sql(db.url, `SELECT 1 FROM information_schema.tables WHERE table_name = 'loyalty_tiers'`)).toHaveLength(1);
    await shot('execute', '#execute');
  });

  it('lists the request in the connection history', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    const row = page.getByTestId('history').getByRole('row').nth(1);
    await expect.poll(() => row.textContent()).toContain('completed');
    await shot('history');
  });

  it('shows a query plan as a tree with a hot node and index recommendations', async () => {
    await page.getByRole('link', { name: 'Query optimization' }).click();
    await page
      .getByLabel('SQL query')
      .fill("SELECT o.id, o.total FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.email = 'c7@example.com' AND o.total > 10");
    await page.getByRole('button', { name: 'Optimize' }).click();
    const tree = page.getByTestId('plan-tree');
    await tree.waitFor({ timeout: 60_000 });
    expect(await tree.getByRole('treeitem').count()).toBeGreaterThanOrEqual(2);
    expect(await tree.locator('li.hot').count()).toBeGreaterThanOrEqual(1);
    await shot('optimize');
  });

  it('says so when the approval token is about to expire', async () => {
    clock.offsetMs = -55 * 60_000; // issued 55 minutes ago: 5 minutes left
    try {
      await page.getByRole('link', { name: 'Migration review' }).click();
      await page.getByLabel('Statements, separated by semicolons').fill('CREATE TABLE audit_marks (id bigint PRIMARY KEY);');
      await page.getByRole('button', { name: 'Analyze' }).click();
      await page.getByTestId('report').waitFor({ timeout: 60_000 });
      const note = page.getByTestId('token-expiry');
      await expect.poll(() => note.textContent()).toMatch(/expires in [45]:\d\d: run it now or analyze again/);
      expect(await note.getAttribute('class')).toContain('warn');
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('uploads documents through upload slots, names each refused file, lists and deletes them', async () => {
    await page.getByRole('link', { name: 'Documents' }).click();
    await page.getByRole('heading', { name: 'Business documents' }).waitFor();
    const picker = page.getByLabel(/PDF, Markdown, text or SQL files/);
    const glossary = {
      name: 'glossary.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Glossary\n\nA customer places orders; each order has order items.\n'),
    };
    const alert = page.getByRole('alert');

    // Opening the batch refuses a type the service does not take, naming the file, before anything is sent.
    await picker.setInputFiles([glossary, { name: 'notes.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') }]);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByTestId('rejections').textContent()).toContain('notes.exe');
    expect(await page.getByTestId('rejections').textContent()).toContain('unsupported_type');

    // A PDF that is not one is refused where the bytes land (the slot), and nothing of the batch is stored.
    // The other file is large, so its upload ends after the refusal: the form must still come back usable.
    const runbook = {
      name: 'runbook.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Runbook\n\n' + 'Restart the worker, then check the queue.\n'.repeat(150_000)),
    };
    await picker.setInputFiles([runbook, { name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') }]);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => alert.textContent()).toContain('unreadable_pdf');
    expect(await alert.textContent()).toContain('fake.pdf');
    expect(await storedDocuments()).toEqual([]);

    // A good batch is sent, confirmed, ingested and listed with its chunk counts.
    await picker.setInputFiles([
      glossary,
      { name: 'orders.sql', mimeType: 'application/sql', buffer: Buffer.from('SELECT id, total FROM orders WHERE total > 100;\n') },
    ]);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByTestId('upload-status').textContent(), { timeout: 30_000 }).toContain('Stored 2 file(s)');
    const table = page.getByTestId('documents');
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await table.textContent()).toContain('glossary.md');
    expect(await table.textContent()).toContain('orders.sql');
    await shot('documents');

    await page.getByRole('button', { name: 'Delete orders.sql' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await storedDocuments()).toEqual(['glossary.md']);
  });

  it('logged no error in the page', () => {
    expect(consoleErrors).toEqual([]);
  });

  it('keeps every form field labelled and every button named (keyboard and screen readers)', async () => {
    await page.getByRole('link', { name: 'Migration review' }).click();
    // A reload keeps the session (session storage) and the view (hash).
    await page.reload();
    await page.getByRole('heading', { name: 'Migration review' }).waitFor();
    // Runs in the page (a string: this file is type-checked without DOM types).
    const unlabelled = await page.evaluate(`[...document.querySelectorAll('input, select, textarea, button')]
      .filter((e) => {
        if (e.type === 'hidden') return false;
        const labelled = (e.labels?.length ?? 0) > 0 || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby');
        return e.tagName === 'BUTTON' ? !(e.textContent ?? '').trim() && !labelled : !labelled;
      })
      .map((e) => e.outerHTML.slice(0, 80))`);
    expect(unlabelled).toEqual([]);
    // Tab reaches the skip link first, then the navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
  });
});
