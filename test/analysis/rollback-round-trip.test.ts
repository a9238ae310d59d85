import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeMigration } from '../../packages/core/src/analysis/analyze-migration';
import { compareSchemas, describeDifference, readSchemaFingerprint } from '../../packages/core/src/analysis/schema-compare/schema-compare';
import type { SchemaSnapshot } from '../../packages/core/src/introspection/schema-snapshot';
import { runScript } from '../support/analysis';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { snapshotOf } from '../support/schema-fidelity';
import { closeSandboxSpare } from '../../packages/core/src/analysis/sandbox/sandbox-pool';

// Issue #36: rollbacks the report called reversible that did not restore the schema. Each case
// runs the migration and then the report's combined rollback script on a real PostgreSQL and
// lets the catalog judge: every object (functions, triggers, indexes, constraints, columns...)
// must be as before.

/** Our own fixture: PL/pgSQL functions and a trigger, range and hash partitions, an enum, a view. */
const FIXTURE = `
CREATE TYPE mood AS ENUM ('ok', 'meh');
CREATE TABLE accounts (id bigint, email text, balance numeric NOT NULL DEFAULT 0, feeling mood, memo text DEFAULT 'none');
COMMENT ON TABLE accounts IS 'customer money';
CREATE FUNCTION touch_balance() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.balance := coalesce(NEW.balance, 0); RETURN NEW; END $$;
CREATE TRIGGER accounts_touch BEFORE INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION touch_balance();
CREATE FUNCTION account_label(a_id bigint) RETURNS text LANGUAGE sql AS $$ SELECT 'acct-' || a_id $$;
CREATE VIEW account_labels AS SELECT id, account_label(id) AS label FROM accounts;
CREATE TABLE events (id bigint NOT NULL, tenant int NOT NULL, at date NOT NULL, body text) PARTITION BY RANGE (at);
CREATE TABLE events_2025 PARTITION OF events FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
CREATE TABLE events_2026 PARTITION OF events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
CREATE INDEX events_at_tenant ON events (at, tenant);
CREATE TABLE sessions (id bigint NOT NULL, user_id int) PARTITION BY HASH (id);
CREATE TABLE sessions_0 PARTITION OF sessions FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE sessions_1 PARTITION OF sessions FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE FUNCTION fee(n integer) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT n * 0.5 $$;
COMMENT ON FUNCTION fee(integer) IS 'late fee';
CREATE DOMAIN birth_year AS integer DEFAULT 1990 CHECK (VALUE > 1900);
CREATE TABLE tickets (id serial PRIMARY KEY, title text);
INSERT INTO accounts (id, email) SELECT g, 'a' || g || '@example.com' FROM generate_series(1, 20) g;
`;

async function fingerprint(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await readSchemaFingerprint((q) => c.query(q));
  } finally {
    await c.end();
  }
}

describe('rollback plans restore the schema (real PostgreSQL)', () => {
  let source: Awaited<ReturnType<typeof createScratchDatabase>>;
  let snapshot: SchemaSnapshot;

  beforeAll(async () => {
    source = await createScratchDatabase('rbsrc');
    await sql(source.url, FIXTURE);
    snapshot = await snapshotOf(source.url);
  });
  afterAll(() => source.drop());

  /** Analyzes `migration`, applies it and the report's combined rollback on a fresh copy, and returns the plan and what differs. */
  async function roundTrip(migration: string) {
    const report = await analyzeMigration(migration, snapshot, { connectionId: 'rb', sandbox: false, rules: [] });
    const db = await createScratchDatabase('rbrt');
    try {
      await sql(db.url, FIXTURE);
      const before = await fingerprint(db.url);
      await runScript(db.url, migration);
      expect(compareSchemas(before, await fingerprint(db.url)).length).toBeGreaterThan(0);
      await runScript(db.url, report.rollback_plan.combined_script);
      const differences = compareSchemas(before, await fingerprint(db.url)).map(describeDifference);
      return { plan: report.rollback_plan, differences };
    } finally {
      await db.drop();
    }
  }

  it('CREATE OR REPLACE of existing functions restores their previous definitions (not DROP FUNCTION)', async () => {
    const { plan, differences } = await roundTrip(`
      CREATE OR REPLACE FUNCTION touch_balance() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.balance := coalesce(NEW.balance, 1); RETURN NEW; END $$;
      CREATE OR REPLACE FUNCTION account_label(a_id bigint) RETURNS text LANGUAGE sql AS $$ SELECT 'account-' || a_id $$;
      CREATE FUNCTION account_label(a_id bigint, prefix text) RETURNS text LANGUAGE sql AS $$ SELECT prefix || a_id $$;`);
    expect(plan.has_irreversible).toBe(false);
    expect(plan.steps[0]!.sql).toMatch(/^CREATE OR REPLACE FUNCTION public\.touch_balance\(\)/);
    expect(plan.steps[2]!.sql).toBe('DROP FUNCTION public.account_label(bigint, text)');
    expect(differences).toEqual([]);
  });

  it('CREATE OR REPLACE TRIGGER and RULE restore the previous ones; renames, comments and defaults go back', async () => {
    const { plan, differences } = await roundTrip(`
      CREATE OR REPLACE TRIGGER accounts_touch BEFORE INSERT OR UPDATE ON accounts FOR EACH ROW EXECUTE FUNCTION touch_balance();
      CREATE RULE accounts_no_delete AS ON DELETE TO accounts DO INSTEAD NOTHING;
      ALTER FUNCTION account_label(bigint) RENAME TO account_tag;
      COMMENT ON TABLE accounts IS 'balances';
      COMMENT ON COLUMN accounts.email IS 'login';
      ALTER TABLE accounts ALTER COLUMN balance SET DEFAULT 10;
      ALTER TYPE mood RENAME VALUE 'meh' TO 'fine';
      ALTER TYPE mood RENAME TO feeling;
      ALTER TABLE events DETACH PARTITION events_2026;`);
    expect(plan.has_irreversible).toBe(false);
    expect(differences).toEqual([]);
  });

  it('a USING INDEX primary key over a concurrently built index is undone once, with its columns nullable again', async () => {
    const { plan, differences } = await roundTrip(`
      CREATE UNIQUE INDEX CONCURRENTLY accounts_id_uniq ON accounts (id);
      ALTER TABLE accounts ADD CONSTRAINT accounts_pkey PRIMARY KEY USING INDEX accounts_id_uniq;`);
    expect(plan.has_irreversible).toBe(false);
    expect(plan.steps[0]!.sql).toMatch(/^-- nothing to undo/);
    expect(differences).toEqual([]);
  });

  it('partition indexes the parent index attaches are dropped with it, not again', async () => {
    const { plan, differences } = await roundTrip(`
      CREATE INDEX CONCURRENTLY events_2025_tenant ON events_2025 (tenant);
      CREATE INDEX CONCURRENTLY events_2026_tenant ON events_2026 (tenant);
      CREATE INDEX events_tenant ON events (tenant);
      CREATE INDEX CONCURRENTLY sessions_0_user ON sessions_0 (user_id);
      CREATE INDEX sessions_user ON ONLY sessions (user_id);
      ALTER INDEX sessions_user ATTACH PARTITION sessions_0_user;`);
    expect(plan.has_irreversible).toBe(false);
    expect(differences).toEqual([]);
  });

  it('DROP FUNCTION and DROP TRIGGER put back what the snapshot holds (a changed signature: drop, then create)', async () => {
    // hatchet's v1_0_60 and v1_0_108 (bench/rollback-chains.ts): a function dropped and created
    // again with other arguments was "irreversible" although the snapshot held its definition.
    const { plan, differences } = await roundTrip(`
      DROP FUNCTION fee(integer);
      CREATE OR REPLACE FUNCTION fee(n integer, rate numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT n * rate $$;
      DROP TRIGGER accounts_touch ON accounts;
      DROP FUNCTION IF EXISTS no_such_function(integer);`);
    expect(plan.has_irreversible).toBe(false);
    expect(plan.steps[0]!.sql).toMatch(/^CREATE OR REPLACE FUNCTION public\.fee\(n integer\)/);
    expect(plan.steps[0]!.sql).toContain(`COMMENT ON FUNCTION public.fee(n integer) IS 'late fee'`);
    expect(plan.steps[3]!.sql).toMatch(/^-- nothing to undo: routine no_such_function did not exist/);
    expect(differences).toEqual([]);
  });

  it('domains, range and composite types: created ones are dropped, ALTER DOMAIN goes back', async () => {
    // pagila's 004_year_domain_narrower and 027_new_domain_column, hatchet's v1_0_113 (uuidrange).
    const { plan, differences } = await roundTrip(`
      ALTER DOMAIN birth_year ADD CONSTRAINT birth_year_past CHECK (VALUE < 2100);
      ALTER DOMAIN birth_year DROP CONSTRAINT birth_year_check;
      ALTER DOMAIN birth_year SET DEFAULT 2000;
      ALTER DOMAIN birth_year SET NOT NULL;
      CREATE DOMAIN positive_money AS numeric(6,2) CHECK (VALUE >= 0);
      ALTER TABLE accounts ADD COLUMN late_fee positive_money DEFAULT 1.00;
      CREATE TYPE span AS RANGE (subtype = date);
      CREATE TYPE pair AS (a integer, b text);`);
    expect(plan.has_irreversible).toBe(false);
    expect(differences).toEqual([]);
  });

  it('DROP INDEX of a partitioned index rebuilds its partition indexes under their names and attaches them', async () => {
    // hatchet's v1_0_94 (bench/rollback-chains.ts): the snapshot's definition reads ON ONLY the
    // parent, so the undo built an invalid parent index and no partition index at all.
    const { plan, differences } = await roundTrip(`DROP INDEX events_at_tenant;`);
    expect(plan.has_irreversible).toBe(false);
    expect(plan.steps[0]!.sql).toContain('ALTER INDEX public.events_at_tenant ATTACH PARTITION public.events_2025_at_tenant_idx');
    expect(differences).toEqual([]);
  });

  it('IF NOT EXISTS on objects that were already there: nothing to undo (not a DROP of what existed)', async () => {
    // hatchet's v1_0_68 and v1_0_73 (bench/rollback-chains.ts) add a column IF NOT EXISTS that an
    // earlier migration had added: the undo dropped the column that was there before.
    const { plan, differences } = await roundTrip(`
      CREATE TABLE IF NOT EXISTS accounts (id bigint);
      CREATE INDEX IF NOT EXISTS events_at_tenant ON events (at, tenant);
      ALTER TABLE accounts ADD COLUMN IF NOT EXISTS email text, ADD COLUMN IF NOT EXISTS nickname text;
      CREATE SCHEMA IF NOT EXISTS public;`);
    expect(plan.has_irreversible).toBe(false);
    expect(plan.steps[0]!.sql).toBe('-- nothing to undo: table public.accounts existed before the migration (IF NOT EXISTS left it as it was)');
    expect(plan.steps[2]!.sql).toBe('ALTER TABLE public.accounts DROP COLUMN nickname');
    expect(differences).toEqual([]);
  });

  it('each undo restores the column as it was just before its statement (renamed, retyped, default dropped earlier)', async () => {
    // lemmy's rename-sidebar-again (a column renamed, then retyped under its new name) and
    // show_downvotes_for_others_only (default dropped, type changed, new default set): the undo
    // looked the column up in the snapshot, under the new name (not found) or with the old default.
    const { plan, differences } = await roundTrip(`
      ALTER TABLE accounts RENAME email TO login;
      ALTER TABLE accounts ALTER login TYPE varchar(150);
      ALTER TABLE accounts ALTER COLUMN memo DROP DEFAULT;
      ALTER TABLE accounts ALTER COLUMN memo TYPE integer USING length(memo);
      ALTER TABLE accounts ALTER COLUMN memo SET DEFAULT 5;`);
    expect(plan.steps[1]!.sql).toBe('ALTER TABLE public.accounts ALTER COLUMN login TYPE text USING login::text');
    expect(plan.steps[4]!.sql).toBe('ALTER TABLE public.accounts ALTER COLUMN memo DROP DEFAULT');
    expect(plan.has_irreversible).toBe(false);
    expect(differences).toEqual([]);
  });

  it('a constraint the migration adds and drops again: the undo puts it back before dropping it (the script runs to the end)', async () => {
    // hatchet's v1_0_108 and v1_0_109 (bench/rollback-chains.ts): CHECK (x IS NOT NULL) NOT VALID,
    // VALIDATE, SET NOT NULL, DROP CONSTRAINT. The undo of the drop was "not in the snapshot", so
    // the undo of the ADD failed on a constraint that no longer existed.
    const { plan, differences } = await roundTrip(`
      ALTER TABLE accounts ADD CONSTRAINT accounts_email_nn CHECK (email IS NOT NULL) NOT VALID;
      ALTER TABLE accounts VALIDATE CONSTRAINT accounts_email_nn;
      ALTER TABLE accounts ALTER COLUMN email SET NOT NULL;
      ALTER TABLE accounts DROP CONSTRAINT accounts_email_nn;
      ALTER TABLE accounts DROP CONSTRAINT IF EXISTS no_such_constraint;`);
    expect(plan.steps[3]!.sql).toBe('ALTER TABLE public.accounts ADD CONSTRAINT accounts_email_nn CHECK (email IS NOT NULL) NOT VALID');
    expect(plan.has_irreversible).toBe(false);
    expect(differences).toEqual([]);
  });

  it('ALTER SEQUENCE ... AS bigint goes back to the type, bounds and owner the snapshot holds; a RESTART is data, not undone', async () => {
    const { plan, differences } = await roundTrip(`
      ALTER TABLE tickets ALTER COLUMN id TYPE bigint;
      ALTER SEQUENCE tickets_id_seq AS bigint MAXVALUE 9007199254740991 OWNED BY NONE;`);
    expect(plan.has_irreversible).toBe(false);
    expect(plan.steps.find((s) => s.statement_index === 1)!.sql).toMatch(
      /^ALTER SEQUENCE public\.tickets_id_seq AS integer .*MAXVALUE 2147483647 .*OWNED BY public\.tickets\.id$/,
    );
    expect(differences).toEqual([]);
    const restart = await roundTrip('ALTER SEQUENCE tickets_id_seq AS bigint; ALTER SEQUENCE tickets_id_seq RESTART WITH 100');
    expect(restart.plan.steps.find((s) => s.statement_index === 1)).toMatchObject({ reversible: false, warning: expect.stringMatching(/position/) });
    expect(restart.differences).toEqual([]);
  });

  it('ALTER TYPE ... ADD VALUE is irreversible, with the manual procedure for this type', async () => {
    const report = await analyzeMigration(`ALTER TYPE mood ADD VALUE 'great'`, snapshot, { connectionId: 'rb', sandbox: false, rules: [] });
    expect(report.rollback_plan.has_irreversible).toBe(true);
    expect(report.rollback_plan.steps[0]!.warning).toMatch(/cannot remove a value from an enum/);
    expect(report.rollback_plan.steps[0]!.warning).toContain(
      "CREATE TYPE public.mood_old AS ENUM ('ok', 'meh'); ALTER TABLE public.accounts ALTER COLUMN feeling TYPE public.mood_old USING feeling::text::public.mood_old",
    );
  });
});

describe('the sandbox proves the rollback in every analysis', () => {
  let source: Awaited<ReturnType<typeof createScratchDatabase>>;
  let snapshot: SchemaSnapshot;
  beforeAll(async () => {
    source = await createScratchDatabase('rbproof');
    await sql(source.url, FIXTURE);
    snapshot = await snapshotOf(source.url);
  });
  afterAll(async () => {
    await source.drop();
    await closeSandboxSpare();
  });
  const analyze = (migration: string) => analyzeMigration(migration, snapshot, { connectionId: 'rb', sandbox: { timeoutMs: 60_000 }, rules: [] });
  const roundTripCheck = (r: Awaited<ReturnType<typeof analyze>>) => r.sandbox_result.validation_results.find((v) => v.check === 'rollback_round_trip');

  it('verifies a rollback that gives the clone back, and says so in validation_results', async () => {
    const r = await analyze(`
      CREATE OR REPLACE FUNCTION touch_balance() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.balance := coalesce(NEW.balance, 1); RETURN NEW; END $$;
      ALTER TABLE accounts ADD COLUMN note text;
      LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE;`);
    expect(r.sandbox_result.passed).toBe(true);
    expect(r.rollback_plan.verified).toBe(true);
    expect(r.rollback_plan.verification).toMatch(
      /^The rollback script ran on the migrated sandbox clone and gave back the clone as it was before: \d+ object\(s\)/,
    );
    expect(roundTripCheck(r)).toMatchObject({ passed: true });
    expect(r.sandbox_result).not.toHaveProperty('rollback_proof');
  }, 180_000);

  it('a step whose round trip fails is not presented as reversible, and has_irreversible follows', async () => {
    // The view gains a column; CREATE OR REPLACE VIEW cannot take it away again.
    const r = await analyze(`CREATE OR REPLACE VIEW account_labels AS SELECT id, account_label(id) AS label, email FROM accounts;`);
    expect(r.sandbox_result.passed).toBe(true);
    expect(r.rollback_plan.verified).toBe(false);
    expect(r.rollback_plan.verification).toMatch(/failed in the sandbox at the undo of statement 0: cannot drop columns from view/);
    expect(r.rollback_plan.steps[0]).toMatchObject({ reversible: false });
    expect(r.rollback_plan.steps[0]!.warning).toMatch(/its undo failed in the sandbox: cannot drop columns from view/);
    expect(r.statements[0]!.rollback.reversible).toBe(false);
    expect(r.rollback_plan.has_irreversible).toBe(true);
    expect(roundTripCheck(r)).toMatchObject({ passed: false });
  }, 180_000);

  it('names the objects a rollback leaves different, and does not claim back rows of irreversible steps', async () => {
    const r = await analyze(`ALTER TABLE accounts DROP COLUMN email; DELETE FROM accounts WHERE id > 1;`);
    expect(r.rollback_plan.verified).toBe(false);
    expect(r.rollback_plan.verification).toMatch(/column public\.accounts\.email differs/);
    expect(r.rollback_plan.verification).not.toMatch(/row\(s\) before the migration/);
    expect(r.rollback_plan.has_irreversible).toBe(true);
  }, 180_000);

  it('does not claim back the rows an irreversible write to a partitioned table put in its partitions', async () => {
    // pagila's 007_refund_a_payment (bench/rollback-chains.ts): the INSERT names the parent, the
    // row lands in a partition, and the proof held that partition's count against the plan.
    const r = await analyze(`INSERT INTO events (id, tenant, at, body) VALUES (999, 1, '2025-06-01', 'refund'); ALTER TABLE accounts ADD COLUMN note text;`);
    expect(r.rollback_plan.steps[0]!.reversible).toBe(false);
    expect(r.rollback_plan.verified).toBe(true);
    expect(r.rollback_plan.verification).toMatch(/rows of tables written by the irreversible steps 0 are not claimed back/);
    expect(r.rollback_plan.steps[1]!.reversible).toBe(true);
  }, 180_000);

  it('is null, with the reason, when the migration does not apply', async () => {
    const r = await analyze(`ALTER TABLE accounts ADD COLUMN note text; ALTER TABLE nowhere ADD COLUMN x int;`);
    expect(r.sandbox_result.passed).toBe(false);
    expect(r.rollback_plan.verified).toBeNull();
    expect(r.rollback_plan.verification).toBe('not verified: the migration did not apply in the sandbox, so its rollback could not be tried');
    expect(roundTripCheck(r)).toBeUndefined();
  }, 180_000);
});
