import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { type ExecuteFixture, startExecuteFixture } from '../support/sql-execute';

/** Setup starts a runtime and creates and registers a database: slow when the machine is shared. */
const SETUP_TIMEOUT_MS = 180_000;

let f: ExecuteFixture;

beforeAll(async () => {
  f = await startExecuteFixture({
    user: 'catalog-verdicts',
    setupSql: `CREATE TABLE items (id int PRIMARY KEY, v text);
      INSERT INTO items VALUES (1, 'one'), (2, 'two');
      CREATE TABLE audit (at timestamptz DEFAULT now());
      CREATE FUNCTION label(i int) RETURNS text LANGUAGE sql STABLE AS $$ SELECT 'item ' || i $$;`,
  });
}, SETUP_TIMEOUT_MS);
afterAll(() => f.close());

const agent = (statement: string) => f.execute({ sql: statement, caller: 'agent', guardrail: 'strict' });

/** The next transaction id the server will hand out: every probe of the catalog check takes two. */
const nextXid = async (): Promise<bigint> =>
  BigInt((await sql<{ x: string }>(f.db.url, "SELECT split_part(pg_catalog.txid_current_snapshot()::text, ':', 2) AS x"))[0]!.x);

describe('kept catalog verdicts of the agent guardrail', () => {
  it('checks a repeated statement once while nothing changes on the server', async () => {
    const statement = 'SELECT v, label(id) FROM items WHERE id = 1';
    expect((await agent(statement)).status).toBe(200);
    // The test server is shared with other test files: any transaction of theirs that ends is,
    // rightly, a reason to check again. So rounds are repeated until one ran undisturbed; without
    // kept verdicts none can, as each request's probe takes a transaction id and a subtransaction id.
    const spent: bigint[] = [];
    for (let round = 0; round < 20 && spent.at(-1) !== 0n; round++) {
      const before = await nextXid();
      for (let i = 0; i < 5; i++) {
        const res = await agent(statement);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data.rows).toEqual([['one', 'item 1']]);
      }
      spent.push((await nextXid()) - before);
    }
    expect(spent.at(-1), `transaction ids spent per round: ${spent.join(', ')}`).toBe(0n);
  });

  it('checks again after a function the statement reaches is replaced by one that writes', async () => {
    const statement = 'SELECT label(id) FROM items WHERE id = 2';
    expect((await agent(statement)).status).toBe(200);
    expect((await agent(statement)).status).toBe(200);
    await sql(
      f.db.url,
      `CREATE OR REPLACE FUNCTION label(i int) RETURNS text LANGUAGE sql VOLATILE AS $$ INSERT INTO audit DEFAULT VALUES; SELECT 'item ' || i $$`,
    );
    const res = await agent(statement);
    expect(res.status, res.text).toBe(403);
    expect(res.body.error.code).toBe('GUARDRAIL_VIOLATION');
    expect(await sql(f.db.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 0 }]);
    await sql(f.db.url, `CREATE OR REPLACE FUNCTION label(i int) RETURNS text LANGUAGE sql STABLE AS $$ SELECT 'item ' || i $$`);
  });

  it('checks again after a table is replaced by a view that calls a volatile function', async () => {
    await sql(f.db.url, 'CREATE TABLE shelf (id int, v text); INSERT INTO shelf VALUES (1, $$a$$)');
    const statement = 'SELECT v FROM shelf WHERE id = 1';
    expect((await agent(statement)).status).toBe(200);
    expect((await agent(statement)).status).toBe(200);
    await sql(
      f.db.url,
      `CREATE FUNCTION touch() RETURNS text LANGUAGE plpgsql VOLATILE AS $$ BEGIN INSERT INTO audit DEFAULT VALUES; RETURN 'x'; END $$;
       DROP TABLE shelf; CREATE VIEW shelf AS SELECT 1 AS id, touch() AS v`,
    );
    const res = await agent(statement);
    expect(res.status, res.text).toBe(403);
    expect(res.body.error.code).toBe('GUARDRAIL_VIOLATION');
    expect(await sql(f.db.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 0 }]);
  });

  it('checks again after a human request on the same connection puts a row-level security policy on the table', async () => {
    await sql(f.db.url, 'CREATE TABLE crate (id int, v text); INSERT INTO crate VALUES (1, $$c$$)');
    const statement = 'SELECT v FROM crate WHERE id = 1';
    expect((await agent(statement)).status).toBe(200);
    // A policy that calls a function that writes, put on by a human through the service itself.
    const human = await f.execute({
      sql: `CREATE FUNCTION allowed() RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$ BEGIN INSERT INTO audit DEFAULT VALUES; RETURN true; END $$;
            ALTER TABLE crate ENABLE ROW LEVEL SECURITY; ALTER TABLE crate FORCE ROW LEVEL SECURITY;
            CREATE POLICY p ON crate USING (allowed())`,
    });
    expect(human.status, human.text).toBe(200);
    const res = await agent(statement);
    expect(res.status, res.text).toBe(403);
    expect(res.body.error.code).toBe('GUARDRAIL_VIOLATION');
    expect(await sql(f.db.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 0 }]);
  });
});
