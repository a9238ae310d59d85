import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaSnapshot } from '../../packages/core/src/introspection/schema-snapshot';
import { closeSandboxSpare } from '../../packages/core/src/analysis/sandbox/sandbox-pool';
import { sandboxOnText } from '../support/sandbox-on-text';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { snapshotOf } from '../support/schema-fidelity';

// Issue #36: a sandbox refusal must say which statement or check failed and why.

const FIXTURE = `
CREATE TYPE plan_tier AS ENUM ('free', 'pro');
CREATE TABLE tenants (id bigint PRIMARY KEY, tier plan_tier NOT NULL DEFAULT 'free');
CREATE TABLE audit_log (id bigint NOT NULL, tenant_id bigint NOT NULL, tier plan_tier, body text) PARTITION BY HASH (id);
CREATE TABLE audit_log_0 PARTITION OF audit_log FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE audit_log_1 PARTITION OF audit_log FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE metrics (id bigint NOT NULL, tenant_id bigint, value numeric) PARTITION BY HASH (tenant_id);
CREATE TABLE metrics_0 PARTITION OF metrics FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE metrics_1 PARTITION OF metrics FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE FUNCTION audit_count(t bigint) RETURNS bigint LANGUAGE sql AS $$ SELECT count(*) FROM audit_log WHERE tenant_id = t $$;
CREATE FUNCTION tier_of(t bigint) RETURNS plan_tier LANGUAGE plpgsql AS $$ BEGIN RETURN (SELECT tier FROM tenants WHERE id = t); END $$;
INSERT INTO tenants VALUES (1, 'free'), (2, 'pro');
INSERT INTO audit_log SELECT g, 1 + g % 2, 'free', 'x' FROM generate_series(1, 20) g;
INSERT INTO metrics SELECT g, 1 + g % 2, g FROM generate_series(1, 20) g;
ANALYZE;
`;

describe('every sandbox refusal explains itself', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let snapshot: SchemaSnapshot;
  beforeAll(async () => {
    db = await createScratchDatabase('refuse');
    await sql(db.url, FIXTURE);
    snapshot = await snapshotOf(db.url);
  });
  afterAll(async () => {
    await db.drop();
    await closeSandboxSpare();
  });

  it('drops two hash-partitioned tables, an enum and two functions', async () => {
    const r = await sandboxOnText(
      snapshot,
      'DROP FUNCTION audit_count(bigint); DROP FUNCTION tier_of(bigint); DROP TABLE audit_log; DROP TABLE metrics; ALTER TABLE tenants DROP COLUMN tier; DROP TYPE plan_tier;',
      { timeoutMs: 60_000 },
    );
    // The partitions go with their tables: not a row count "changed unexpectedly".
    expect(r.validation_results.filter((v) => !v.passed)).toEqual([]);
    expect(r).toMatchObject({ passed: true, migration_error: null });
  }, 120_000);

  it('names the failed check in migration_error when no statement failed', async () => {
    const r = await sandboxOnText(snapshot, `CREATE TABLE scratch (id int); DO $$ BEGIN EXECUTE 'DROP TABLE scratch'; END $$;`, { timeoutMs: 60_000 });
    expect(r.passed).toBe(false);
    expect(r.migration_error).toBe('Check object_exists failed: public.scratch exists after statement 0 (CREATE_TABLE): NOT as expected');
  }, 120_000);
});
