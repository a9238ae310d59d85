import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestCli, project, runCli } from '../support/cli';
import { registerConnection } from '../support/connections';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

// `dbops analyze --safe` (issue #30): the proved plan printed, written beside the tokens and applied.
const SEED = `
  CREATE TABLE events (id bigint PRIMARY KEY, kind text NOT NULL);
  INSERT INTO events SELECT g, 'k' || (g % 7) FROM generate_series(1, 120000) g;
  ANALYZE events;
`;

let t: TestRuntime;
let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let cli: Awaited<ReturnType<typeof buildTestCli>>;
let p: ReturnType<typeof project>;
let env: Record<string, string>;
let conn: string;
const dbops = (args: string[]) => runCli(cli.entry, args, { cwd: p.dir, env, timeoutMs: 180_000 });

beforeAll(async () => {
  // A wider gateway window: the proof of the plan must not give up on a busy CI machine.
  [t, db, cli] = await Promise.all([startTestRuntime({ env: { DBOPS_GATEWAY_TIMEOUT_SECONDS: '120' } }), createScratchDatabase('clisafe'), buildTestCli()]);
  await sql(db.url, SEED);
  conn = (await registerConnection(t, 'cli-safe-user', db.url)).id;
  env = { DBOPS_API_KEY: await t.apiKey('cli-safe-user'), DBOPS_BASE_URL: t.baseUrl };
  p = project({ 'migrations/010_kind_index.sql': 'CREATE INDEX events_kind_idx ON events (kind);\n' });
}, 180_000);

afterAll(async () => {
  cli?.remove();
  p?.remove();
  await t?.close();
  await db?.drop();
});

it('analyze --safe prints the proved plan and stores it with its token; apply runs it', { timeout: 240_000 }, async () => {
  const a = await dbops(['analyze', '--safe', '--fail-on', 'none', '--connection', conn, 'migrations/010_kind_index.sql']);
  expect(a.code, a.stderr + a.stdout).toBe(0);
  expect(a.stdout).toContain('Safe plan (proved equivalent; dbops apply .dbops/safe-plans/migrations__010_kind_index.sql)');
  expect(a.stdout).toMatch(/step 1 \(alone, no transaction\): SHARE UPDATE EXCLUSIVE ~\d+ ms: CREATE INDEX CONCURRENTLY events_kind_idx ON events \(kind\)/);
  const planFile = '.dbops/safe-plans/migrations__010_kind_index.sql';
  expect(readFileSync(path.join(p.dir, planFile), 'utf8')).toContain('CREATE INDEX CONCURRENTLY events_kind_idx ON events (kind);');
  const r = await dbops(['apply', '--interval', '200', '--connection', conn, planFile]);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  expect(await sql(db.url, `SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = 'events_kind_idx'::regclass`)).toEqual([{ valid: true }]);
});
