import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlDigest } from '@dbops/core/analysis';
import type { AnalysisReport } from '@dbops/core/analysis';
import { registerConnection } from '../support/connections';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { runScript, schemaFingerprint, SHOP_SCHEMA } from '../support/analysis';

const SLOW = 180_000;

describe('POST /connections/{id}/migrations/analyze', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let key: string;
  let otherKey: string;
  let connectionId: string;

  const analyze = (sqlText: unknown, apiKey = key, id = connectionId) =>
    t.request<AnalysisReport & { error?: { code: string; message: string; details?: Record<string, unknown> } }>(
      'POST',
      `/connections/${id}/migrations/analyze`,
      { apiKey, body: { sql: sqlText } },
    );

  beforeAll(async () => {
    t = await startTestRuntime();
    db = await createScratchDatabase('an');
    await sql(db.url, SHOP_SCHEMA);
    connectionId = (await registerConnection(t, 'ana', db.url)).id;
    key = await t.apiKey('ana');
    otherKey = await t.apiKey('mallory');
    // The analysis would introspect on first use; doing it here keeps that cost out of the tests.
    const intro = await t.request('POST', `/connections/${connectionId}/introspect`, { apiKey: key });
    expect(intro.status, intro.text).toBe(200);
  }, SLOW);

  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it(
    'models each lock family, lists non-transactional statements and issues a token when the sandbox passes',
    async () => {
      const migration = [
        "SET lock_timeout = '2s'",
        'ALTER TABLE orders ADD COLUMN note text',
        'ALTER TABLE orders ADD COLUMN token uuid DEFAULT gen_random_uuid()',
        'ALTER TABLE order_items ALTER COLUMN quantity TYPE bigint',
        'ALTER TABLE customers ALTER COLUMN name TYPE varchar(200)',
        'ALTER TABLE shipments ALTER COLUMN carrier SET NOT NULL',
        'ALTER TABLE shipments ADD CONSTRAINT shipments_order_fk2 FOREIGN KEY (order_id) REFERENCES orders(id) NOT VALID',
        'ALTER TABLE shipments VALIDATE CONSTRAINT shipments_order_fk2',
        'CREATE INDEX orders_total_idx ON orders (total)',
        'CREATE INDEX CONCURRENTLY orders_status_idx ON orders (status)',
        'DROP INDEX CONCURRENTLY orders_customer_id_idx',
        'CREATE TABLE refunds (id bigint PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders(id), amount numeric(12,2))',
        "UPDATE products SET price = price * 1.1 WHERE sku LIKE 'SKU1%'",
      ].join(';\n');
      const res = await analyze(migration);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-credits-remaining')).toMatch(/^\d+\.\d{4}$/);
      const r = res.body;
      expect(r.connection_id).toBe(connectionId);
      expect(r.total_statements).toBe(13);
      const s = r.statements;
      expect(s.map((x) => x.statement_type)).toEqual([
        'SET',
        'ALTER_TABLE_ADD_COLUMN',
        'ALTER_TABLE_ADD_COLUMN',
        'ALTER_TABLE_ALTER_COLUMN_TYPE',
        'ALTER_TABLE_ALTER_COLUMN_TYPE',
        'ALTER_TABLE_SET_NOT_NULL',
        'ALTER_TABLE_ADD_FOREIGN_KEY',
        'ALTER_TABLE_VALIDATE_CONSTRAINT',
        'CREATE_INDEX',
        'CREATE_INDEX_CONCURRENTLY',
        'DROP_INDEX_CONCURRENTLY',
        'CREATE_TABLE',
        'UPDATE',
      ]);
      expect(s.map((x) => x.lock_type)).toEqual([
        'NONE',
        'ACCESS EXCLUSIVE',
        'ACCESS EXCLUSIVE',
        'ACCESS EXCLUSIVE',
        'ACCESS EXCLUSIVE',
        'ACCESS EXCLUSIVE',
        'SHARE ROW EXCLUSIVE',
        'SHARE UPDATE EXCLUSIVE',
        'SHARE',
        'SHARE UPDATE EXCLUSIVE',
        'SHARE UPDATE EXCLUSIVE',
        'ACCESS EXCLUSIVE',
        'ROW EXCLUSIVE',
      ]);
      expect(s[1]!.sql).toBe('ALTER TABLE orders ADD COLUMN note text');
      expect(s[1]!.table).toBe('public.orders');
      // Rewrite vs catalog-only: volatile default and int -> bigint rewrite; varchar widening does not.
      expect(s[2]!.warnings.join('\n')).toMatch(/adding-field-with-default/);
      expect(s[3]!.warnings.join('\n')).toMatch(/rewrite/);
      expect(s[4]!.warnings.join('\n')).toMatch(/binary coercible/);
      expect(s[5]!.warnings.join('\n')).toMatch(/adding-not-nullable-field/);
      expect(s[6]!.affected_tables.map((a) => a.table)).toEqual(['public.shipments', 'public.orders']);
      expect(s[8]!.warnings.join('\n')).toMatch(/require-concurrent-index-creation/);
      expect(s[11]!.warnings.join('\n')).toMatch(/fk-without-index/);
      // Structured findings (issue #17): the same warnings as data, located in the submitted SQL.
      const fwd = r.findings.find((f) => f.rule === 'adding-field-with-default');
      expect(fwd).toMatchObject({ severity: 'error', statement_index: 2, location: { line: 3, column: 1 }, safer: expect.any(String) });
      expect(r.warnings).toContain(`Statement 2: [adding-field-with-default] ${fwd!.message} Safer: ${fwd!.safer}`);
      expect(r.findings.filter((f) => f.statement_index === 11).map((f) => f.rule)).toContain('fk-without-index');
      for (const x of s) {
        expect(x.lock_duration_ms).toBeGreaterThanOrEqual(0);
        expect(x.rollback.statement_index).toBe(x.index);
        expect(x.risk_score).toBeGreaterThanOrEqual(0);
        expect(x.risk_score).toBeLessThanOrEqual(100);
      }
      expect(s[3]!.lock_duration_ms).toBeGreaterThan(s[1]!.lock_duration_ms);
      expect(r.non_transactional_statements.map((n) => n.statement_index)).toEqual([9, 10]);
      expect(r.sandbox_result).toMatchObject({ passed: true, migration_applied: true, migration_error: null });
      expect(r.sandbox_result.tables_created).toBe(5);
      expect(r.sandbox_result.rows_inserted).toBe(15);
      expect(r.sandbox_result.validation_results.every((v) => v.passed)).toBe(true);
      expect(r.business_narrative.schema_only).toBe(true);
      expect(r.business_narrative.citations).toEqual([]);
      expect(r.business_narrative.summary).toContain('13 statement(s)');
      expect(typeof r.approval_token).toBe('string');
      const claims = JSON.parse(Buffer.from(r.approval_token!.split('.')[1]!, 'base64url').toString('utf8'));
      expect(claims).toMatchObject({ cid: connectionId, sql: sqlDigest(migration) });
      expect(claims.exp - claims.iat).toBe(3600);
      // The user's database is untouched by the sandbox.
      expect(await sql(db.url, `SELECT to_regclass('public.refunds') AS r`)).toEqual([{ r: null }]);
    },
    SLOW,
  );

  it(
    'scores the spec risk categories and follows multi-level cascade paths',
    async () => {
      const res = await analyze(
        [
          'CREATE TABLE audit_log (id bigint PRIMARY KEY, note text)',
          'DELETE FROM customers WHERE id = 1',
          'ALTER TABLE products DROP COLUMN sku',
          'TRUNCATE customers CASCADE',
        ].join(';\n'),
      );
      expect(res.status, res.text).toBe(200);
      const s = res.body.statements;
      expect(s.map((x) => x.risk_category)).toEqual(['low', 'medium', 'high', 'critical']);
      expect(res.body.risk_score).toBe(Math.max(...s.map((x) => x.risk_score)));
      expect(res.body.risk_category).toBe('critical');
      const del = s[1]!.affected_tables;
      expect(del).toEqual([
        { table: 'public.customers', impact: 'direct', cascade_path: null },
        { table: 'public.orders', impact: 'cascade', cascade_path: ['public.customers', 'public.orders'] },
        { table: 'public.order_items', impact: 'cascade', cascade_path: ['public.customers', 'public.orders', 'public.order_items'] },
        { table: 'public.shipments', impact: 'cascade', cascade_path: ['public.customers', 'public.orders', 'public.shipments'] },
      ]);
      const chain = res.body.impact_chains.find((c) => c.statement_index === 1 && c.depth === 2 && c.action === 'cascade')!;
      expect(chain).toMatchObject({
        root: 'public.customers',
        path: ['public.customers', 'public.orders', 'public.order_items'],
        via: ['orders_customer_id_fkey', 'order_items_order_id_fkey'],
      });
      expect(res.body.rollback_plan.has_irreversible).toBe(true);
      expect(res.body.warnings.join('\n')).toMatch(/ban-truncate-cascade/);
      // TRUNCATE ... CASCADE empties the whole chain, including the SET NULL child.
      expect(
        s[3]!.affected_tables
          .filter((a) => a.impact === 'cascade')
          .map((a) => a.table)
          .sort(),
      ).toEqual(['public.order_items', 'public.orders', 'public.shipments']);
    },
    SLOW,
  );

  it(
    'fails the sandbox on a NOT NULL column without default on a populated table, and withholds the token',
    async () => {
      const res = await analyze('ALTER TABLE customers ADD COLUMN tier text NOT NULL');
      expect(res.status, res.text).toBe(200);
      expect(res.body.sandbox_result.passed).toBe(false);
      expect(res.body.sandbox_result.migration_applied).toBe(false);
      // The live rows' reason comes first; the sandbox's own PostgreSQL error is kept in its validations.
      expect(res.body.sandbox_result.migration_error).toMatch(
        /^Preflight on the live data: statement 0 would fail: ADD COLUMN tier NOT NULL without a default .*the table has rows/,
      );
      expect(res.body.sandbox_result.validation_results).toContainEqual(
        expect.objectContaining({
          check: 'migration_applied',
          passed: false,
          detail: expect.stringMatching(/Statement 0 \(ALTER_TABLE_ADD_COLUMN\).*contains null values/),
        }),
      );
      expect(res.body.approval_token).toBeNull();
      expect(res.body.statements[0]!.warnings.join('\n')).toMatch(/adding-required-field/);
    },
    SLOW,
  );

  it(
    'fails the sandbox on a unique violation and on an error PostgreSQL finds past the parser',
    async () => {
      const uniq = await analyze('ALTER TABLE orders ADD CONSTRAINT orders_status_key UNIQUE (status)');
      expect(uniq.body.sandbox_result.passed).toBe(false);
      expect(uniq.body.sandbox_result.migration_error).toMatch(/could not create unique index|duplicate key/);
      expect(uniq.body.approval_token).toBeNull();
      const semantic = await analyze('ALTER TABLE orders ADD COLUMN weight no_such_type');
      expect(semantic.body.sandbox_result).toMatchObject({ passed: false, migration_applied: false });
      expect(semantic.body.sandbox_result.migration_error).toMatch(/type "no_such_type" does not exist/);
      expect(semantic.body.approval_token).toBeNull();
    },
    SLOW,
  );

  it(
    'answers 422 SQL_PARSE_ERROR naming the statement index and line of a syntax error',
    async () => {
      const res = await analyze('ALTER TABLE orders ADD COLUMN a int;\n-- second\nALTER TABLE orders ADD COLUM b int;');
      expect(res.status).toBe(422);
      expect(res.body.error?.code).toBe('SQL_PARSE_ERROR');
      expect(res.body.error?.message).toMatch(/Statement 1 \(line 3\).*syntax error/);
      expect(res.body.error?.details).toMatchObject({ statement_index: 1, line: 3 });
    },
    SLOW,
  );

  it(
    'rejects bad input with 422, unknown or foreign connections with 404 and missing credentials with 401',
    async () => {
      expect((await analyze('')).status).toBe(422);
      expect((await analyze(42)).status).toBe(422);
      expect((await analyze('SELECT 1', otherKey)).status).toBe(404);
      expect((await analyze('SELECT 1', key, '00000000-0000-4000-8000-00000000abcd')).status).toBe(404);
      const anon = await t.request('POST', `/connections/${connectionId}/migrations/analyze`, { body: { sql: 'SELECT 1' } });
      expect(anon.status).toBe(401);
    },
    SLOW,
  );

  it(
    'produces a rollback that returns a real database to its original schema',
    async () => {
      const migration = [
        'ALTER TABLE orders ADD COLUMN note text',
        'ALTER TABLE order_items ALTER COLUMN quantity TYPE bigint',
        'ALTER TABLE customers RENAME COLUMN name TO full_name',
        'ALTER TABLE products ADD CONSTRAINT products_sku_len CHECK (char_length(sku) < 40) NOT VALID',
        'ALTER TABLE shipments ALTER COLUMN carrier SET NOT NULL',
        'ALTER TABLE orders ALTER COLUMN total SET DEFAULT 0',
        'CREATE INDEX CONCURRENTLY orders_total_idx ON orders (total)',
        'DROP INDEX orders_customer_id_idx',
        'CREATE TABLE refunds (id bigint PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders(id))',
        "ALTER TYPE order_status RENAME VALUE 'shipped' TO 'sent'",
      ].join(';\n');
      const res = await analyze(migration);
      expect(res.status, res.text).toBe(200);
      const plan = res.body.rollback_plan;
      expect(plan.steps).toHaveLength(10);
      expect(plan.has_irreversible).toBe(false);
      // The sandbox already ran this rollback on its migrated clone (issue #36).
      expect(plan.verified, plan.verification).toBe(true);
      expect(res.body.sandbox_result.validation_results.find((v) => v.check === 'rollback_round_trip')).toMatchObject({ passed: true });
      expect(plan.combined_script).toMatch(/^BEGIN;/);
      expect(plan.combined_script).toMatch(/COMMIT;\n-- undo statement 6 \(outside a transaction[^\n]*\nDROP INDEX CONCURRENTLY orders_total_idx;\nBEGIN;/);
      const scratch = await createScratchDatabase('rb');
      try {
        await sql(scratch.url, SHOP_SCHEMA);
        const before = await schemaFingerprint(scratch.url);
        await runScript(scratch.url, migration);
        expect(await schemaFingerprint(scratch.url)).not.toEqual(before);
        await runScript(scratch.url, plan.combined_script);
        expect(await schemaFingerprint(scratch.url)).toEqual(before);
        expect(await sql(scratch.url, `SELECT enum_range(NULL::order_status)::text AS r`)).toEqual([{ r: '{pending,paid,shipped}' }]);
      } finally {
        await scratch.drop();
      }
    },
    SLOW,
  );
});
