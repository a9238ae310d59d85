import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestCli, project, runCli } from '../support/cli';
import { registerConnection } from '../support/connections';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const SEED = `
  CREATE TABLE orders (id bigint PRIMARY KEY, email text NOT NULL, total numeric(12,2));
  INSERT INTO orders VALUES (1, 'a@example.com', 10), (2, 'b@example.com', 20);
`;

// Own fixtures: a migration that applies, one that passes analysis and then fails on rows changed
// since (a duplicate email inserted after the analysis), and one the service flags with an error finding.
const FILES = {
  'migrations/001_customers.sql':
    "SET lock_timeout = '2s';\nCREATE TABLE customers (id bigint PRIMARY KEY, name text);\nALTER TABLE orders ADD COLUMN customer_id bigint;\n",
  'migrations/002_unique_email.sql': "SET lock_timeout = '2s';\nALTER TABLE orders ADD CONSTRAINT orders_email_key UNIQUE (email);\n",
  'never-analyzed.sql': 'CREATE TABLE x (id bigint);\n',
  'migrations/003_index.sql': "SET lock_timeout = '2s';\n-- squawk-ignore require-statement-timeout\nCREATE INDEX orders_total_idx ON orders (total);\n",
};

describe('dbops analyze / apply / status / connections / login against a running service and PostgreSQL', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let cli: Awaited<ReturnType<typeof buildTestCli>>;
  let p: ReturnType<typeof project>;
  let key: string;
  let conn: string;
  let env: Record<string, string>;
  const dbops = (args: string[], extra: Record<string, string> = {}) => runCli(cli.entry, args, { cwd: p.dir, env: { ...env, ...extra }, timeoutMs: 120_000 });

  beforeAll(async () => {
    [t, db, cli] = await Promise.all([startTestRuntime(), createScratchDatabase('cli'), buildTestCli()]);
    await sql(db.url, SEED);
    key = await t.apiKey('cli-user');
    conn = (await registerConnection(t, 'cli-user', db.url, { name: 'shop' })).id;
    p = project(FILES);
    env = { DBOPS_API_KEY: key, DBOPS_BASE_URL: t.baseUrl };
  }, 180_000);

  afterAll(async () => {
    cli?.remove();
    p?.remove();
    await t?.close();
    await db?.drop();
  });

  it("connections lists the caller's connections", async () => {
    const r = await dbops(['connections']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${conn}  shop  postgresql_local`);
    const json = JSON.parse((await dbops(['connections', '--json'])).stdout);
    expect(json.map((c: { id: string }) => c.id)).toEqual([conn]);
  });

  it('analyze prints the service report through the reporters and stores the approval token (0600) for apply', async () => {
    const r = await dbops(['analyze', '--connection', conn, 'migrations/001_customers.sql']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(
      /migrations\/001_customers\.sql: risk \d+ \((low|medium|high|critical)\), sandbox passed, approval token stored in \.dbops\/tokens\/[0-9a-f]{64}\.json/,
    );
    const dir = path.join(p.dir, '.dbops', 'tokens');
    const [tokenFile] = readdirSync(dir);
    expect(statSync(path.join(dir, tokenFile!)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(path.join(dir, tokenFile!), 'utf8'));
    expect(stored).toMatchObject({ connection_id: conn, file: 'migrations/001_customers.sql', approval_token: expect.any(String) });

    // Findings from the live schema come through every reporter, ignore comments applied.
    const json = JSON.parse((await dbops(['analyze', '--connection', conn, '-r', 'json', '--fail-on', 'none', 'migrations/003_index.sql'])).stdout);
    const rules = json.files[0].findings.map((f: { rule: string }) => f.rule);
    expect(rules).toContain('require-concurrent-index-creation');
    expect(rules).toContain('lock-impact');
    expect(rules).not.toContain('require-statement-timeout');
    expect(json.files[0].findings.find((f: { rule: string }) => f.rule === 'require-concurrent-index-creation')).toMatchObject({
      severity: 'error',
      line: 3,
      column: 1,
      statement: 'CREATE INDEX orders_total_idx ON orders (total)',
    });
    expect(json.files[0].analysis).toMatchObject({ sandbox_passed: true, risk_score: expect.any(Number) });
    const gh = await dbops(['analyze', '--connection', conn, 'migrations/003_index.sql'], { GITHUB_ACTIONS: 'true' });
    expect(gh.code).toBe(1);
    expect(gh.stdout).toMatch(/^::error file=migrations\/003_index\.sql,line=3,endLine=3,col=1,title=dbops require-concurrent-index-creation::/m);
  });

  it('apply executes with the stored token, follows the request to the end and changes the database', async () => {
    const r = await dbops(['apply', '--interval', '200', 'migrations/001_customers.sql']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stderr).toMatch(/^request [0-9a-f-]{36}: pending$/m);
    expect(r.stderr).toMatch(/^completed$/m);
    expect(r.stdout, r.stdout).toMatch(/request [0-9a-f-]{36}: completed/);
    expect(r.stdout, r.stdout).toContain('tables added: customers');
    expect(r.stdout).toContain('column added: orders.customer_id bigint');
    expect(await sql(db.url, "SELECT to_regclass('public.customers')::text AS t")).toEqual([{ t: 'customers' }]);

    const requestId = /request ([0-9a-f-]{36})/.exec(r.stdout)![1]!;
    const status = await dbops(['status', requestId]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`request ${requestId}: completed`);
    expect(JSON.parse((await dbops(['status', '--json', requestId])).stdout)).toMatchObject({ request_id: requestId, status: 'completed' });
  });

  it('apply exits 1 when the rows changed after the analysis and the migration fails on them, and status says why', async () => {
    const a = await dbops(['analyze', '--connection', conn, '--fail-on', 'none', 'migrations/002_unique_email.sql']);
    expect(a.code, a.stderr + a.stdout).toBe(0);
    expect(a.stdout).toContain('sandbox passed');
    // A duplicate arrives between the analysis and the run: the token is still valid, the run fails.
    await sql(db.url, "INSERT INTO orders VALUES (3, 'a@example.com', 30)");
    const r = await dbops(['apply', '--interval', '200', '--connection', conn, 'migrations/002_unique_email.sql']);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(r.stdout).toMatch(/: failed/);
    expect(r.stdout).toMatch(/error: .*(duplicate|unique)/i);
    const requestId = /request ([0-9a-f-]{36})/.exec(r.stdout)![1]!;
    expect((await dbops(['status', requestId])).code).toBe(1);
  });

  it('analyze refuses, with no token, a migration the live rows would make fail', async () => {
    // The duplicate email inserted above is still there: the data preflight finds it.
    const a = await dbops(['analyze', '--connection', conn, '--fail-on', 'none', 'migrations/002_unique_email.sql']);
    expect(a.code, a.stderr + a.stdout).toBe(0);
    expect(a.stdout).toMatch(/sandbox failed: .*Preflight/);
    expect(a.stdout).toContain('no approval token');
  });

  it('exits 2 on usage and connection errors', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [['analyze', 'migrations/001_customers.sql'], {}, 'no connection'],
      [['analyze', '--connection', 'not-a-uuid', 'migrations'], {}, 'must be a connection id'],
      [
        ['analyze', '--connection', conn, 'migrations'],
        { DBOPS_BASE_URL: 'http://127.0.0.1:9' },
        'cannot reach the dbops service at http://127.0.0.1:9/api/v1',
      ],
      [['connections'], { DBOPS_API_KEY: 'dbo_not_a_key' }, 'failed with 403'],
      [['apply', 'never-analyzed.sql'], {}, 'no approval token for never-analyzed.sql'],
      [['status', '00000000-0000-4000-8000-000000000000'], {}, 'failed with 404'],
    ];
    for (const [args, extra, message] of cases) {
      const r = await dbops(args, extra);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('login checks the key, stores it with rights 0600, and later commands use it without DBOPS_API_KEY', async () => {
    const home = p.dir;
    const bad = await runCli(cli.entry, ['login', '--base-url', t.baseUrl], { cwd: p.dir, env: { HOME: home }, input: 'dbo_wrong\n' });
    expect(bad.code).toBe(2);
    expect(existsSync(path.join(home, '.config/dbops/credentials'))).toBe(false);

    const r = await runCli(cli.entry, ['login', '--base-url', t.baseUrl], { cwd: p.dir, env: { HOME: home }, input: `${key}\n` });
    expect(r.code, r.stderr).toBe(0);
    const file = path.join(home, '.config/dbops/credentials');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ api_key: key, base_url: t.baseUrl });
    const list = await runCli(cli.entry, ['connections'], { cwd: p.dir, env: { HOME: home } });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(conn);
  });
});
