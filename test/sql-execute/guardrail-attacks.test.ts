import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectMcpHttp } from '../support/mcp';
import { optimize } from '../support/optimize';
import { sql } from '../support/scratch-database';
import { type SentinelSession, startSentinel } from '../support/sentinel-session';
import { databaseFingerprint, type ExecuteFixture, startExecuteFixture } from '../support/sql-execute';

// The attacks of issue #23 and variants, through HTTP and MCP, against a real PostgreSQL whose
// connection role is a superuser (the worst case): dblink and large objects are available.

const FILE = `/tmp/dbops-guardrail-${randomBytes(6).toString('hex')}`;

const BASE_SETUP = `
  CREATE EXTENSION dblink;
  CREATE TABLE t (id int PRIMARY KEY, v text CONSTRAINT v_not_empty CHECK (v <> ''));
  INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 20) g;
  CREATE SEQUENCE s;
  CREATE TABLE audit (at timestamptz DEFAULT now());
  CREATE FUNCTION touch() RETURNS int LANGUAGE sql VOLATILE AS 'INSERT INTO audit DEFAULT VALUES RETURNING 1';
  CREATE TYPE mood AS ENUM ('ok', 'sad');
  CREATE TABLE moods (m mood);
  INSERT INTO moods VALUES ('ok'), ('sad');
`;

/** Writers that reach outside the transaction; `URL` is the database's own address (a second session). */
const ATTACK_SETUP = `
  CREATE FUNCTION seq_eq(int, int) RETURNS bool LANGUAGE sql VOLATILE AS $$ SELECT nextval('s') > 0 AND $1 = $2 $$;
  CREATE OPERATOR === (leftarg = int, rightarg = int, function = seq_eq);
  CREATE FUNCTION mood_eq(mood, mood) RETURNS bool LANGUAGE sql IMMUTABLE
    AS $$ SELECT length(dblink_exec('URL', 'INSERT INTO audit DEFAULT VALUES')) > 0 AND $1::text = $2::text $$;
  CREATE OPERATOR = (leftarg = mood, rightarg = mood, function = mood_eq);
  CREATE OPERATOR >= (leftarg = mood, rightarg = mood, function = mood_eq);
  CREATE OPERATOR <= (leftarg = mood, rightarg = mood, function = mood_eq);
  CREATE FUNCTION leak_step(int, int) RETURNS int LANGUAGE sql STABLE
    AS $$ SELECT coalesce($1, 0) + length(dblink_exec('URL', 'INSERT INTO audit DEFAULT VALUES')) $$;
  CREATE AGGREGATE leaky(int) (sfunc = leak_step, stype = int);
  CREATE FUNCTION stable_writer() RETURNS text LANGUAGE sql STABLE AS $$ SELECT dblink_exec('URL', 'INSERT INTO audit DEFAULT VALUES') $$;
  CREATE FUNCTION stable_writer_pl() RETURNS int LANGUAGE plpgsql STABLE
    AS $$ BEGIN PERFORM dblink_exec('URL', 'UPDATE t SET v = ''hacked'''); RETURN 1; END $$;
  CREATE FUNCTION atomic_writer() RETURNS text LANGUAGE sql STABLE
    BEGIN ATOMIC SELECT dblink_exec('URL', 'DELETE FROM t'); END;
  CREATE FUNCTION calm(p int) RETURNS bool LANGUAGE sql IMMUTABLE AS $$ SELECT pg_terminate_backend(p) $$;
  CREATE FUNCTION lo_wrap(path text) RETURNS int LANGUAGE sql STABLE AS $$ SELECT lo_export(lo_from_bytea(0, 'x'), path) $$;
  CREATE VIEW seq_view AS SELECT nextval('s') AS n;
  CREATE VIEW writer_view AS SELECT stable_writer() AS x;
  CREATE FUNCTION plant(int, int) RETURNS bool LANGUAGE plpgsql VOLATILE
    AS $$ BEGIN CREATE TABLE IF NOT EXISTS planted (a int); RETURN true; END $$;
  CREATE OPERATOR ##> (leftarg = int, rightarg = int, function = plant);
  CREATE FUNCTION plant_step(int, int) RETURNS int LANGUAGE plpgsql VOLATILE
    AS $$ BEGIN CREATE TABLE IF NOT EXISTS planted (a int); RETURN 1; END $$;
  CREATE AGGREGATE planting(int) (sfunc = plant_step, stype = int);
  CREATE FUNCTION stable_plant() RETURNS int LANGUAGE plpgsql STABLE
    AS $$ BEGIN CREATE TABLE IF NOT EXISTS planted (a int); RETURN 1; END $$;
  CREATE FUNCTION stable_plant_remote() RETURNS int LANGUAGE sql STABLE AS $$ SELECT length(dblink_exec('URL', 'CREATE TABLE planted (a int)')) $$;
  CREATE FUNCTION exfil() RETURNS int LANGUAGE plpgsql VOLATILE AS $$ BEGIN COPY (SELECT 1) TO PROGRAM 'touch FILE'; RETURN 1; END $$;
  CREATE FUNCTION dyn_insert() RETURNS int LANGUAGE plpgsql VOLATILE
    AS $$ BEGIN EXECUTE format('%s INTO audit DEFAULT VALUES', 'INS' || 'ERT'); RETURN 1; END $$;
  CREATE FUNCTION plain_step(int, int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce($1, 0) + $2 $$;
  CREATE FUNCTION leak_final(int) RETURNS int LANGUAGE sql STABLE
    AS $$ SELECT $1 + length(dblink_exec('URL', 'INSERT INTO audit DEFAULT VALUES')) $$;
  CREATE AGGREGATE leaky_final(int) (sfunc = plain_step, stype = int, finalfunc = leak_final);
  CREATE FUNCTION plant_final(int) RETURNS int LANGUAGE plpgsql STABLE
    AS $$ BEGIN CREATE TABLE IF NOT EXISTS planted (a int); RETURN $1; END $$;
  CREATE AGGREGATE planting_final(int) (sfunc = plain_step, stype = int, finalfunc = plant_final);
`;

const SETUP_TIMEOUT_MS = 180_000;

let f: ExecuteFixture;
let sentinel: SentinelSession;
/** A key whose owner allows every level: MCP without a policy stays at strict. */
let permissiveKey: string;

beforeAll(async () => {
  f = await startExecuteFixture({ user: 'attack-user', setupSql: BASE_SETUP });
  await sql(f.db.url, ATTACK_SETUP.replaceAll('URL', f.db.url).replaceAll('FILE', FILE));
  // A long query a pg_cancel_backend bypass would interrupt.
  sentinel = await startSentinel(f.db.url);
  const created = await f.t.request('POST', '/api-keys', {
    jwt: await f.t.jwt(f.user),
    body: { name: 'mcp permissive', policy: { max_guardrail: 'permissive' } },
  });
  permissiveKey = created.body.data.key;
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await sentinel.stop();
  await f.close();
});

/** Rows, catalog, sequence, large objects, locks, the other session, and the server's files. */
async function fingerprint(): Promise<Record<string, unknown>> {
  const admin = await f.admin();
  const [extra] = (
    await admin.query(
      `SELECT (SELECT string_agg(conname, ',' ORDER BY conname) FROM pg_constraint WHERE conrelid = 'public.t'::regclass) AS constraints,
            (SELECT count(*)::int FROM pg_class WHERE relname IN ('planted', 't_renamed')) AS planted,
            (SELECT count(*)::int FROM pg_proc WHERE pronamespace = 'public'::regnamespace) AS functions,
            (SELECT count(*)::int FROM moods) AS moods`,
    )
  ).rows;
  return { ...(await databaseFingerprint(admin)), ...extra, file_written: existsSync(FILE) };
}

type Level = 'strict' | 'moderate' | 'permissive';

async function expectUnchanged(action: () => Promise<void>): Promise<void> {
  const before = await fingerprint();
  await action();
  expect(await fingerprint()).toEqual(before);
  expect(before.file_written).toBe(false);
  expect(before.sentinels).toBe(1);
  expect(sentinel.failed()).toBe(false);
}

async function expectHttpRefused(statement: string, guardrail: Level, kind: string): Promise<void> {
  await expectUnchanged(async () => {
    const res = await f.execute({ sql: statement, caller: 'agent', guardrail });
    expect(res.status, `${statement} at ${guardrail}: ${res.text}`).toBe(403);
    expect(res.body.error.code).toBe('GUARDRAIL_VIOLATION');
    expect(res.body.error.details.statement_kind, res.text).toBe(kind);
  });
}

async function expectMcpRefused(client: Client, tool: string, args: Record<string, unknown>): Promise<void> {
  await expectUnchanged(async () => {
    const res = await callTool(client, tool, { connection_id: f.connectionId, ...args });
    expect(res.isError, res.summary).toBe(true);
    expect(res.summary).toContain('GUARDRAIL_VIOLATION');
  });
}

const sub = (s: string): string => s.replaceAll('URL', f.db.url).replaceAll('FILE', FILE).replaceAll('PID', String(sentinel.pid));

// [statement, loosest level it must be refused at, kind]
const ATTACKS: Array<[string, Level, string]> = [
  // strict: writes through operators, aggregates and labelled functions
  ['SELECT id FROM t WHERE id === ANY (SELECT id FROM t)', 'permissive', 'other'],
  ['SELECT id FROM t WHERE id === 3', 'permissive', 'other'],
  ['SELECT count(*) FROM moods WHERE m IN (SELECT m FROM moods)', 'permissive', 'other'],
  ["SELECT count(*) FROM moods WHERE m = ANY (SELECT 'ok'::mood)", 'permissive', 'other'],
  ["SELECT count(*) FROM moods WHERE m BETWEEN 'ok' AND 'sad'", 'permissive', 'other'],
  ["SELECT CASE m WHEN 'ok' THEN 1 ELSE 0 END FROM moods", 'permissive', 'other'],
  ["SELECT m FROM moods WHERE m IN ('ok', 'sad')", 'permissive', 'other'],
  ['SELECT leaky(id) FROM t', 'permissive', 'other'],
  ['SELECT stable_writer()', 'permissive', 'other'],
  ['SELECT stable_writer_pl()', 'permissive', 'other'],
  ['SELECT atomic_writer()', 'permissive', 'other'],
  ['SELECT * FROM writer_view', 'permissive', 'other'],
  ['SELECT * FROM t WHERE v = ANY (SELECT stable_writer())', 'permissive', 'other'],
  ['EXPLAIN SELECT stable_writer()', 'permissive', 'other'],
  ['SELECT calm(PID)', 'permissive', 'other'],
  ["SELECT lo_wrap('FILE')", 'permissive', 'other'],
  ['SELECT * FROM seq_view', 'permissive', 'other'],
  ["SELECT dblink_exec('URL', 'INSERT INTO audit DEFAULT VALUES')", 'permissive', 'other'],
  ["SELECT lo_export(lo_from_bytea(0, 'x'), 'FILE')", 'permissive', 'other'],
  ['SELECT pg_terminate_backend(PID)', 'permissive', 'other'],
  ["SELECT nextval('s')", 'permissive', 'other'],
  ['SELECT pg_advisory_lock(1)', 'permissive', 'other'],
  ['SELECT touch()', 'strict', 'dml'],
  ['SELECT dyn_insert()', 'moderate', 'ddl'],
  // moderate: DDL through the same routes, DML on the system catalogs
  ['SELECT 1 FROM t WHERE id ##> 1', 'moderate', 'ddl'],
  ['SELECT planting(id) FROM t', 'moderate', 'ddl'],
  ['SELECT stable_plant()', 'moderate', 'ddl'],
  ['SELECT stable_plant_remote()', 'permissive', 'other'],
  ["UPDATE pg_catalog.pg_class SET relname = 't_renamed' WHERE relname = 't'", 'permissive', 'other'],
  ["UPDATE pg_class SET relname = 't_renamed' WHERE relname = 't'", 'permissive', 'other'],
  ["DELETE FROM pg_catalog.pg_constraint WHERE conname = 'v_not_empty'", 'permissive', 'other'],
  ["WITH d AS (DELETE FROM pg_catalog.pg_constraint WHERE conname = 'v_not_empty' RETURNING 1) SELECT count(*) FROM d", 'permissive', 'other'],
  // permissive: COPY ... TO PROGRAM behind a function, existing or created in the request
  ['SELECT exfil()', 'permissive', 'other'],
  ["CREATE FUNCTION exfil2() RETURNS int LANGUAGE sql AS $$ COPY (SELECT 1) TO PROGRAM 'touch FILE'; SELECT 1 $$", 'permissive', 'other'],
  [
    "CREATE FUNCTION exfil3() RETURNS int LANGUAGE plpgsql AS $$ BEGIN EXECUTE 'COPY (SELECT 1) TO PROGRAM ''touch FILE'''; RETURN 1; END $$",
    'permissive',
    'other',
  ],
  [
    "CREATE FUNCTION exfil4() RETURNS int LANGUAGE plpgsql AS $$ BEGIN COPY (SELECT 1) TO PROGRAM 'touch FILE'; RETURN 1; END $$; SELECT exfil4()",
    'permissive',
    'other',
  ],
  // variants: other shapes of the same reach
  ['SELECT leaky_final(id) FROM t', 'permissive', 'other'],
  ['SELECT planting_final(id) FROM t', 'moderate', 'ddl'],
  ["SELECT * FROM dblink('URL', 'INSERT INTO audit DEFAULT VALUES RETURNING 1') AS x(a int)", 'permissive', 'other'],
  ["SELECT setval('s', 100)", 'permissive', 'other'],
  ["SELECT set_config('default_transaction_read_only', 'off', false)", 'permissive', 'other'],
  ["SELECT pg_notify('chan', 'x')", 'permissive', 'other'],
  ["SELECT lo_import('/etc/hostname')", 'permissive', 'other'],
  ["SELECT pg_read_file('/etc/hostname')", 'permissive', 'other'],
  ['SELECT pg_advisory_xact_lock(1)', 'permissive', 'other'],
  ["SELECT NULLIF(m, 'ok') FROM moods", 'permissive', 'other'],
  ["SELECT m IS DISTINCT FROM 'ok' FROM moods", 'permissive', 'other'],
  ['SELECT * FROM t WHERE id = (SELECT leaky(id) FROM t LIMIT 1)', 'permissive', 'other'],
  ['WITH x AS (SELECT stable_writer() AS w) SELECT * FROM x', 'permissive', 'other'],
  ['SELECT * FROM t, LATERAL (SELECT calm(PID)) z', 'permissive', 'other'],
  ['VALUES (stable_writer())', 'permissive', 'other'],
  ["SELECT g FROM generate_series(1, 2) g WHERE g = ANY (ARRAY[nextval('s')::int])", 'permissive', 'other'],
  ['EXPLAIN ANALYZE SELECT stable_writer()', 'permissive', 'other'],
  ["DO $$ BEGIN PERFORM dblink_exec('URL', 'INSERT INTO audit DEFAULT VALUES'); END $$", 'permissive', 'other'],
  ['UPDATE "pg_catalog"."pg_class" SET relname = \'t_renamed\' WHERE relname = \'t\'', 'permissive', 'other'],
  ["INSERT INTO pg_catalog.pg_description VALUES ('public.t'::regclass, 'pg_class'::regclass, 0, 'x')", 'permissive', 'other'],
];

describe('POST /execute refuses what a statement really reaches (HTTP)', () => {
  it.each(ATTACKS)('%s (refused at %s and below)', async (statement, loosest, kind) => {
    const levels: Level[] = loosest === 'permissive' ? ['strict', 'moderate', 'permissive'] : loosest === 'moderate' ? ['strict', 'moderate'] : ['strict'];
    for (const level of levels) {
      const res = await f.execute({ sql: sub(statement), caller: 'agent', guardrail: level });
      expect(res.status, `${statement} at ${level}: ${res.text}`).toBe(403);
    }
    await expectHttpRefused(sub(statement), loosest, kind);
  });

  it('names the path by which the statement reached the function', async () => {
    const res = await f.execute({ sql: 'SELECT count(*) FROM moods WHERE m IN (SELECT m FROM moods)', caller: 'agent' });
    expect(res.body.error.details.statement).toMatch(/function dblink_exec\(.*\) in function mood_eq\(mood,mood\) \(reached through operator =\(mood,mood\)\)/);
    const agg = await f.execute({ sql: 'SELECT planting(id) FROM t', caller: 'agent', guardrail: 'moderate' });
    expect(agg.body.error.details.statement).toBe('CREATE in function plant_step(integer,integer) (reached through function planting(integer))');
  });

  it('still runs what is really a read, and DML that is really DML at moderate', async () => {
    for (const ok of [
      'SELECT count(*) FROM t WHERE id = ANY (SELECT id FROM t WHERE id < 5)',
      "SELECT count(*) FROM t WHERE id BETWEEN 2 AND 4 AND CASE v WHEN 'v2' THEN true ELSE true END",
      'SELECT m::text FROM moods ORDER BY 1',
    ]) {
      const res = await f.execute({ sql: ok, caller: 'agent' });
      expect(res.status, `${ok}: ${res.text}`).toBe(200);
    }
    const dml = await f.execute({ sql: 'SELECT touch()', caller: 'agent', guardrail: 'moderate' });
    expect(dml.status, dml.text).toBe(200);
    expect(await sql(f.db.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 1 }]);
    await sql(f.db.url, 'DELETE FROM audit');
  });
});

describe('POST /queries/optimize?analyze=true applies the same check', () => {
  const refused = [
    "SELECT dblink_exec('URL', 'INSERT INTO audit DEFAULT VALUES')",
    'SELECT pg_terminate_backend(PID)',
    "SELECT lo_export(lo_from_bytea(0, 'x'), 'FILE')",
    "SELECT nextval('s')",
    'SELECT stable_writer()',
    'SELECT id FROM t WHERE id === ANY (SELECT id FROM t)',
    'SELECT count(*) FROM moods WHERE m IN (SELECT m FROM moods)',
    'SELECT * FROM writer_view',
  ];
  it.each(refused)('%s is refused, for analyze=true and false', async (statement) => {
    for (const analyze of [true, false]) {
      await expectUnchanged(async () => {
        const res = await optimize(f.t, f.apiKey, f.connectionId, sub(statement), { analyze });
        expect(res.status, res.text).toBe(403);
        expect(res.body.error?.code).toBe('GUARDRAIL_VIOLATION');
      });
    }
  });

  it('EXPLAINs without ANALYZE what strict would not run, and says so', async () => {
    for (const statement of ['SELECT touch()', 'DELETE FROM t', 'SELECT dyn_insert()']) {
      await expectUnchanged(async () => {
        const res = await optimize(f.t, f.apiKey, f.connectionId, statement, { analyze: true });
        expect(res.status, res.text).toBe(200);
        expect(res.body.execution_plan.analyzed).toBe(false);
        expect(res.body.analyze_skipped).toMatchObject({ code: 'GUARDRAIL_VIOLATION', message: expect.stringContaining('plain EXPLAIN') });
      });
    }
    const read = await optimize(f.t, f.apiKey, f.connectionId, 'SELECT count(*) FROM t', { analyze: true });
    expect(read.body.execution_plan.analyzed).toBe(true);
    expect(read.body).not.toHaveProperty('analyze_skipped');
  });
});

describe('API key policy: an agent cannot choose its own level', () => {
  const createKey = async (policy: Record<string, unknown>) => {
    const res = await f.t.request('POST', '/api-keys', { jwt: await f.t.jwt(f.user), body: { name: 'scoped', policy } });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { key: string; id: string; policy: Record<string, unknown> };
  };

  it('stores the policy, shows it in the listing and refuses bad ones', async () => {
    const k = await createKey({ max_caller: 'agent', max_guardrail: 'moderate' });
    expect(k.policy).toEqual({ max_caller: 'agent', max_guardrail: 'moderate', read_only: false, connection_ids: null, allow_opaque_functions: false });
    const listed = await f.t.request('GET', '/api-keys', { jwt: await f.t.jwt(f.user) });
    expect(listed.body.data.find((x: { id: string }) => x.id === k.id).policy).toEqual(k.policy);
    for (const bad of [{ max_guardrail: 'anything' }, { connection_ids: ['not-a-uuid'] }, { read_only: 'yes' }, { unknown: 1 }]) {
      const res = await f.t.request('POST', '/api-keys', { jwt: await f.t.jwt(f.user), body: { name: 'bad', policy: bad } });
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }
  });

  it('refuses a caller or level above the ceiling, and applies the ceiling when caller is omitted', async () => {
    const { key } = await createKey({ max_caller: 'agent', max_guardrail: 'moderate' });
    await expectUnchanged(async () => {
      const human = await f.execute({ sql: "UPDATE t SET v = 'x' WHERE id = 1", caller: 'human' }, key);
      expect(human.status).toBe(403);
      expect(human.body.error.code).toBe('GUARDRAIL_VIOLATION');
      const omitted = await f.execute({ sql: "UPDATE t SET v = 'x' WHERE id = 1" }, key);
      expect(omitted.status).toBe(403);
      expect(omitted.body.error.details).toMatchObject({ statement_kind: 'dml', guardrail: 'strict' });
      const above = await f.execute({ sql: 'CREATE TABLE planted (a int)', caller: 'agent', guardrail: 'permissive' }, key);
      expect(above.status).toBe(403);
      expect(above.body.error.details).toMatchObject({ key_policy: true, max_guardrail: 'moderate' });
    });
    const moderate = await f.execute({ sql: "UPDATE t SET v = 'v1' WHERE id = 1", caller: 'agent', guardrail: 'moderate' }, key);
    expect(moderate.status, moderate.text).toBe(200);
  });

  it('read-only keys are strict agents and cannot execute migrations', async () => {
    const { key } = await createKey({ read_only: true });
    await expectUnchanged(async () => {
      expect((await f.execute({ sql: "UPDATE t SET v = 'x'", caller: 'agent', guardrail: 'moderate' }, key)).status).toBe(403);
      expect((await f.execute({ sql: "UPDATE t SET v = 'x'", caller: 'human' }, key)).status).toBe(403);
      const migrate = await f.t.request('POST', '/migrations/execute', {
        apiKey: key,
        body: { connection_id: f.connectionId, sql: 'DROP TABLE t', approval_token: 'x' },
      });
      expect(migrate.status).toBe(403);
    });
    const read = await f.execute({ sql: 'SELECT count(*)::int AS n FROM t' }, key);
    expect(read.status, read.text).toBe(200);
  });

  it('limits the connections a key may touch', async () => {
    const { key } = await createKey({ connection_ids: ['00000000-0000-4000-8000-000000000000'] });
    const res = await f.execute({ sql: 'SELECT 1', caller: 'agent' }, key);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('GUARDRAIL_VIOLATION');
    const opt = await optimize(f.t, key, f.connectionId, 'SELECT 1');
    expect(opt.status).toBe(403);
  });

  it('opaque functions: refused unless the policy allows them; READ ONLY still backs strict', async () => {
    await expectHttpRefused('SELECT dyn_insert()', 'moderate', 'ddl');
    const { key } = await createKey({ allow_opaque_functions: true });
    await expectUnchanged(async () => {
      const res = await f.execute({ sql: 'SELECT dyn_insert()', caller: 'agent', guardrail: 'strict' }, key);
      expect(res.status, res.text).toBe(403);
      expect(res.body.error.details.statement).toMatch(/read-only transaction/);
    });
  });
});

describe('the same attacks through MCP', () => {
  let strictClient: Client;
  let permissiveClient: Client;
  beforeAll(async () => {
    strictClient = await connectMcpHttp(f.t.baseUrl, f.apiKey);
    permissiveClient = await connectMcpHttp(f.t.baseUrl, permissiveKey);
  });
  afterAll(async () => {
    await strictClient?.close();
    await permissiveClient?.close();
  });

  it('execute_sql defaults to strict and a key without a policy cannot raise it', async () => {
    await expectMcpRefused(strictClient, 'execute_sql', { sql: "UPDATE t SET v = 'x' WHERE id = 1" });
    await expectMcpRefused(strictClient, 'execute_sql', { sql: "UPDATE t SET v = 'x' WHERE id = 1", guardrail: 'permissive' });
    const read = await callTool(strictClient, 'execute_sql', { connection_id: f.connectionId, sql: 'SELECT count(*)::int AS n FROM t' });
    expect(read.isError, read.summary).toBe(false);
  });

  it.each(ATTACKS.filter(([, loosest]) => loosest === 'permissive'))('execute_sql at permissive: %s', async (statement) => {
    await expectMcpRefused(permissiveClient, 'execute_sql', { sql: sub(statement), guardrail: 'permissive' });
  });

  it.each(ATTACKS.filter(([, loosest]) => loosest === 'moderate'))('execute_sql at moderate: %s', async (statement) => {
    await expectMcpRefused(permissiveClient, 'execute_sql', { sql: sub(statement), guardrail: 'moderate' });
  });

  it('an agent cannot choose its own caller through MCP: caller human is not a way around the guardrail', async () => {
    await expectMcpRefused(strictClient, 'execute_sql', { sql: "UPDATE t SET v = 'x' WHERE id = 1", caller: 'human' });
    await expectMcpRefused(permissiveClient, 'execute_sql', { sql: 'SELECT stable_writer()', caller: 'human', guardrail: 'permissive' });
  });

  it.each(["SELECT dblink_exec('URL', 'DELETE FROM t')", 'SELECT pg_terminate_backend(PID)', "SELECT lo_wrap('FILE')", 'SELECT * FROM seq_view'])(
    'optimize_query analyze=true: %s',
    async (statement) => {
      await expectMcpRefused(strictClient, 'optimize_query', { sql: sub(statement), analyze: true });
    },
  );

  it('optimize_query analyze=true explains DML without running it', async () => {
    await expectUnchanged(async () => {
      const res = await callTool(strictClient, 'optimize_query', { connection_id: f.connectionId, sql: 'DELETE FROM t', analyze: true });
      expect(res.isError, res.summary).toBe(false);
      expect(res.json.analyze_skipped.code).toBe('GUARDRAIL_VIOLATION');
    });
  });
});
