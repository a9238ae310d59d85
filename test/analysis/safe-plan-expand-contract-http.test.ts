import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSchemas, describeDifference } from '../../packages/core/src/analysis/schema-compare/schema-compare';
import { type ConnectedRuntime, startConnectedRuntime } from '../support/connections';
import { analyzeOn, columnsOf, executeSafePlan, fingerprintOf } from '../support/safe-plan';
import { createScratchDatabase, sql } from '../support/scratch-database';

// Issue #30, the expand/contract pattern: a rewriting type change (int to bigint) and an added
// column with a volatile default each get a safe plan, proved in the sandbox, that the executor
// runs with its own token; the database ends with the schema the original would leave (column
// order aside, which the plan reports) and the same data.

const SETUP = `
  CREATE TABLE customers (id int PRIMARY KEY);
  INSERT INTO customers SELECT generate_series(1, 1000);
  CREATE TABLE accounts (
    id serial PRIMARY KEY,
    customer_id int NOT NULL REFERENCES customers (id),
    score int DEFAULT 0 CHECK (score >= 0),
    note text
  );
  CREATE INDEX accounts_customer_score ON accounts (customer_id, score);
  COMMENT ON COLUMN accounts.customer_id IS 'the owner';
  INSERT INTO accounts (customer_id, score, note) SELECT 1 + g % 1000, g % 100, 'n' || g FROM generate_series(1, 3000) g;
  ANALYZE;
`;

// DBOPS_SAFE_PLAN_MIN_ROWS makes the 3,000 rows of accounts a large table, which keeps the test quick.
const SLOW = 300_000;
let f: ConnectedRuntime;
/** The same database, on which the original migrations run as they are: what the plans must end as. */
let expected: Awaited<ReturnType<typeof createScratchDatabase>>;

const analyze = (text: string) => analyzeOn(f, text, { introspect: true });
const executePlan = (plan: { approval_token: string | null; combined_script: string }) => executeSafePlan(f, plan);
const fingerprint = fingerprintOf;

/** The differences between the two databases' schemas with the positions of accounts' columns left out, and accounts' column order in each. */
async function schemaDifferences(): Promise<{ differences: string[]; order: { mine: string[]; original: string[] } }> {
  const strip = (m: ReadonlyMap<string, string>) => new Map([...m].map(([k, v]) => [k, k.startsWith('column public.accounts.') ? v.replace(/^#\d+ /, '') : v]));
  const [mine, original] = await Promise.all([fingerprint(f.db.url), fingerprint(expected.url)]);
  const [a, b] = await Promise.all([columnsOf(f.db.url, 'accounts'), columnsOf(expected.url, 'accounts')]);
  return { differences: compareSchemas(strip(original), strip(mine)).map(describeDifference), order: { mine: a, original: b } };
}

/** md5 of accounts' rows as jsonb (column order does not matter), without the columns named. */
async function rowsDigest(url: string, without: string[] = []): Promise<{ d: string; n: number }> {
  const minus = without.length ? ` - ARRAY[${without.map((c) => `'${c}'`).join(', ')}]` : '';
  const [r] = await sql<{ d: string; n: number }>(
    url,
    `SELECT md5(string_agg((to_jsonb(a)${minus})::text, ',' ORDER BY a.id)) AS d, count(*)::int AS n FROM accounts a`,
  );
  return r!;
}

beforeAll(async () => {
  f = await startConnectedRuntime({
    prefix: 'expandplan',
    user: 'expand-plan-user',
    setupSql: SETUP,
    env: { DBOPS_GATEWAY_TIMEOUT_SECONDS: '150', DBOPS_SAFE_PLAN_BATCH_SIZE: '400', DBOPS_SAFE_PLAN_MIN_ROWS: '2000' },
  });
  expected = await createScratchDatabase('expandorig');
  await sql(expected.url, SETUP);
}, SLOW);
afterAll(async () => {
  await f?.close();
  await expected?.drop();
});

describe('expand/contract safe plans through HTTP', () => {
  it(
    'swaps a serial primary key from int to bigint: offered proved, executed with its token, ends as the original modulo column order',
    { timeout: SLOW },
    async () => {
      const original = 'ALTER TABLE accounts ALTER COLUMN id TYPE bigint';
      const res = await analyze(original);
      expect(res.status, res.text).toBe(200);
      const plan = res.body.safe_plan;
      expect(plan, res.body.safe_plan_reason ?? '').not.toBeNull();
      expect(plan!.equivalent).toBe(true);
      expect(plan!.steps.map((s) => [s.sql.split('\n')[0], s.transactional, s.batched])).toEqual([
        ['ALTER TABLE public.accounts ADD COLUMN dbops_new_id bigint;', true, false],
        ['-- dbops:batched key=id size=400 pause_ms=0', true, true],
        ['CREATE UNIQUE INDEX CONCURRENTLY dbops_new_accounts_pkey ON public.accounts (dbops_new_id)', false, false],
        ['ALTER TABLE public.accounts ADD CONSTRAINT dbops_not_null_accounts_id CHECK (dbops_new_id IS NOT NULL) NOT VALID', true, false],
        ['ALTER TABLE public.accounts VALIDATE CONSTRAINT dbops_not_null_accounts_id', true, false],
        ['DROP TRIGGER dbops_sync_id ON public.accounts;', true, false],
        ['ALTER TABLE public.accounts DROP COLUMN id_dbops_old;', true, false],
      ]);
      expect(plan!.steps[5]!.sql).toContain('ALTER SEQUENCE public.accounts_id_seq OWNED BY public.accounts.id');
      // The proof says where the column order changed, and only there.
      expect(plan!.explanation).toMatch(
        /the column order changed, as the expand\/contract swap does .*: public\.accounts: \(customer_id, score, note, id\), was \(id, customer_id, score, note\)\.$/,
      );
      await executePlan(plan!);
      await sql(expected.url, original);
      const { differences, order } = await schemaDifferences();
      expect(differences).toEqual([]);
      expect(order).toEqual({ mine: ['customer_id', 'score', 'note', 'id'], original: ['id', 'customer_id', 'score', 'note'] });
      expect(await rowsDigest(f.db.url)).toEqual(await rowsDigest(expected.url));
      // No helper is left: no trigger, no function, no shadow or old column.
      const [left] = await sql<{ n: number }>(
        f.db.url,
        "SELECT (SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'dbops%') + (SELECT count(*) FROM pg_proc WHERE proname LIKE 'dbops%') + (SELECT count(*) FROM pg_attribute WHERE attrelid = 'accounts'::regclass AND attname LIKE '%dbops%')::int AS n",
      );
      expect(Number(left!.n)).toBe(0);
      // The sequence still feeds the new column.
      await sql(f.db.url, 'INSERT INTO accounts (customer_id) VALUES (1)');
      await sql(expected.url, 'INSERT INTO accounts (customer_id) VALUES (1)');
      expect(await rowsDigest(f.db.url)).toEqual(await rowsDigest(expected.url));
    },
  );

  it('swaps a NOT NULL foreign key column with a comment and a two-column index to bigint', { timeout: SLOW }, async () => {
    const original = 'ALTER TABLE accounts ALTER COLUMN customer_id TYPE bigint';
    const res = await analyze(original);
    expect(res.status, res.text).toBe(200);
    const plan = res.body.safe_plan;
    expect(plan, res.body.safe_plan_reason ?? '').not.toBeNull();
    expect(plan!.steps.map((s) => s.sql.split('\n')[0])).toEqual([
      'ALTER TABLE public.accounts ADD COLUMN dbops_new_customer_id bigint;',
      '-- dbops:batched key=id size=400 pause_ms=0',
      'CREATE INDEX CONCURRENTLY dbops_new_accounts_customer_score ON public.accounts (dbops_new_customer_id, score)',
      'ALTER TABLE public.accounts ADD CONSTRAINT dbops_new_accounts_customer_id_fkey FOREIGN KEY (dbops_new_customer_id) REFERENCES customers (id) NOT VALID',
      'ALTER TABLE public.accounts VALIDATE CONSTRAINT dbops_new_accounts_customer_id_fkey',
      'ALTER TABLE public.accounts ADD CONSTRAINT dbops_not_null_accounts_customer_id CHECK (dbops_new_customer_id IS NOT NULL) NOT VALID',
      'ALTER TABLE public.accounts VALIDATE CONSTRAINT dbops_not_null_accounts_customer_id',
      'DROP TRIGGER dbops_sync_customer_id ON public.accounts;',
      'ALTER TABLE public.accounts DROP COLUMN customer_id_dbops_old;',
    ]);
    expect(plan!.steps[7]!.sql).toContain("COMMENT ON COLUMN public.accounts.customer_id IS 'the owner'");
    await executePlan(plan!);
    await sql(expected.url, original);
    const { differences, order } = await schemaDifferences();
    expect(differences).toEqual([]);
    expect(order.mine).toEqual(['score', 'note', 'id', 'customer_id']);
    expect(await rowsDigest(f.db.url)).toEqual(await rowsDigest(expected.url));
  });

  it('adds a column with a volatile default: the column added, its default set, the rows filled in batches, NOT NULL proved', { timeout: SLOW }, async () => {
    const original = 'ALTER TABLE accounts ADD COLUMN token uuid NOT NULL DEFAULT gen_random_uuid()';
    const res = await analyze(original);
    expect(res.status, res.text).toBe(200);
    const plan = res.body.safe_plan;
    expect(plan, res.body.safe_plan_reason ?? '').not.toBeNull();
    expect(plan!.equivalent).toBe(true);
    expect(plan!.steps.map((s) => s.sql)).toEqual([
      'ALTER TABLE accounts ADD COLUMN token uuid;\nALTER TABLE accounts ALTER COLUMN token SET DEFAULT gen_random_uuid()',
      '-- dbops:batched key=id size=400 pause_ms=0\nUPDATE public.accounts SET token = DEFAULT WHERE token IS NULL',
      'ALTER TABLE public.accounts ADD CONSTRAINT dbops_accounts_token_not_null CHECK (token IS NOT NULL) NOT VALID',
      'ALTER TABLE public.accounts VALIDATE CONSTRAINT dbops_accounts_token_not_null',
      'ALTER TABLE public.accounts ALTER COLUMN token SET NOT NULL;\nALTER TABLE public.accounts DROP CONSTRAINT dbops_accounts_token_not_null',
    ]);
    expect(plan!.explanation).toMatch(/each row's value computed when its batch runs, not at ALTER time/);
    expect(plan!.explanation).not.toMatch(/column order changed/);
    const done = await executePlan(plan!);
    expect(done).toMatchObject({ rows_done: 3001, rows_total: 3001 }); // the row the first test inserted too
    await sql(expected.url, original);
    const { differences, order } = await schemaDifferences();
    expect(differences).toEqual([]);
    expect(order.mine.at(-1)).toBe('token');
    expect(await rowsDigest(f.db.url, ['token'])).toEqual(await rowsDigest(expected.url, ['token']));
    const [tokens] = await sql<{ n: number; distinct: number }>(
      f.db.url,
      'SELECT count(token)::int AS n, count(DISTINCT token)::int AS distinct FROM accounts',
    );
    expect(tokens).toEqual({ n: 3001, distinct: 3001 });
  });

  it('offers no expand/contract plan for a table whose trigger the backfill would fire, and says why', { timeout: SLOW }, async () => {
    await sql(
      f.db.url,
      'CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$; CREATE TRIGGER accounts_touch BEFORE UPDATE ON accounts FOR EACH ROW EXECUTE FUNCTION touch()',
    );
    const res = await analyze('ALTER TABLE accounts ALTER COLUMN score TYPE bigint');
    expect(res.status, res.text).toBe(200);
    expect(res.body.safe_plan).toBeNull();
    expect(res.body.safe_plan_reason).toMatch(
      /^statement 0 .*: trigger accounts_touch fires on UPDATE or before INSERT: the backfill would fire it on every row/,
    );
  });
});
