import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSession } from '../../packages/core/src/analysis/sandbox/pg-session';
import { type ProofBaseline, readProofBaseline, roundTripStart, runRollbackRoundTrip } from '../../packages/core/src/analysis/sandbox/rollback-round-trip';
import { compareSchemas, describeDifference, readSchemaFingerprint } from '../../packages/core/src/analysis/schema-compare/schema-compare';
import { createScratchDatabase, sql, targetServerUrl, withDatabase } from '../support/scratch-database';

// Issue #34: the rollback proof reads again only the objects the round trip touched, from a
// census of the catalogs. Each case runs a "migration" and a "rollback" on a copy of one
// template database (as the sandbox's runs are copies of a clone template, the baseline read on
// another copy) and checks that the proof says exactly what a full reading says.

/**
 * Our own fixture: objects that name each other (a view, a default calling a function, a
 * trigger, a domain, an enum, a collation), and two tables alike in every key, so only the view
 * on one of them tells them apart once swapped.
 */
const FIXTURE = `
CREATE TYPE mood AS ENUM ('ok', 'meh');
CREATE DOMAIN code AS text CHECK (VALUE <> '');
CREATE FUNCTION new_code() RETURNS text LANGUAGE sql AS $$ SELECT 'c' $$;
CREATE TABLE accounts (id bigint PRIMARY KEY, email text, feeling mood, ref code DEFAULT new_code());
COMMENT ON COLUMN accounts.email IS 'where we write';
CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER accounts_touch BEFORE INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION touch();
CREATE TABLE blue (id int, note text);
CREATE TABLE green (id int, note text);
CREATE VIEW live AS SELECT id, note FROM blue;
CREATE INDEX accounts_email ON accounts (email);
CREATE SCHEMA side;
CREATE COLLATION side.exact FROM "C";
CREATE TABLE side.items (id int, label text COLLATE side.exact);
INSERT INTO accounts (id, email) VALUES (1, 'a@example.com');
`;

describe('the rollback proof reads again only what the round trip touched, and still catches every difference', () => {
  let template: Awaited<ReturnType<typeof createScratchDatabase>>;
  let baseline: ProofBaseline;

  const onCopy = async <T>(work: (c: pg.Client) => Promise<T>): Promise<T> => {
    const name = `${template.name}_run_${Math.random().toString(36).slice(2, 8)}`;
    await sql(targetServerUrl(), `CREATE DATABASE ${name} TEMPLATE ${template.name}`);
    const c = new pg.Client({ connectionString: withDatabase(targetServerUrl(), name) });
    await c.connect();
    try {
      return await work(c);
    } finally {
      await c.end();
      await sql(targetServerUrl(), `DROP DATABASE ${name} WITH (FORCE)`);
    }
  };

  beforeAll(async () => {
    template = await createScratchDatabase('proofscope');
    await sql(template.url, FIXTURE);
    baseline = await onCopy((c) => readProofBaseline(pgSession(c)));
  });
  afterAll(() => template?.drop());

  /** The proof of `rollback` after `migration` on a fresh copy, and what a full reading of the same copy says. */
  const roundTrip = (migration: string, rollback: string) =>
    onCopy(async (c) => {
      const session = pgSession(c);
      const since = await roundTripStart(session);
      await c.query(migration);
      const proof = await runRollbackRoundTrip(session, { script: rollback }, baseline, new Map(), 150000, since);
      const full = compareSchemas(baseline.fingerprint, await readSchemaFingerprint((q) => c.query(q))).map(describeDifference);
      return { proof, differences: proof.differences.map(describeDifference), full };
    });

  it('reads again only the touched table when the rollback restores it', async () => {
    expect(baseline.census).not.toBeNull();
    const { proof, differences, full } = await roundTrip('ALTER TABLE accounts ADD COLUMN note text', 'ALTER TABLE accounts DROP COLUMN note');
    expect(full).toEqual([]);
    expect(differences).toEqual([]);
    expect(proof.failure).toBeNull();
    expect(proof.compared.reread).toBeGreaterThan(0);
    expect(proof.compared.reread).toBeLessThan(proof.compared.objects / 2);
  });

  it.each([
    ['renames a function another table calls in a default', 'ALTER FUNCTION new_code() RENAME TO other_code'],
    ['drops a trigger (rows removed, none written)', 'DROP TRIGGER accounts_touch ON accounts'],
    [
      'swaps two tables alike, so the view reads the other one',
      'ALTER TABLE blue RENAME TO tmp; ALTER TABLE green RENAME TO blue; ALTER TABLE tmp RENAME TO green',
    ],
    ['renames a schema', 'ALTER SCHEMA side RENAME TO aside'],
    ['renames a collation a column uses (a catalog the census counts whole)', 'ALTER COLLATION side.exact RENAME TO exactly'],
    ['renames a label of an enum a table uses', "ALTER TYPE mood RENAME VALUE 'meh' TO 'bad'"],
    ["comments another table's column", "COMMENT ON COLUMN accounts.email IS 'changed'"],
    ["drops a domain's check", 'ALTER DOMAIN code DROP CONSTRAINT code_check'],
    ['changes the search path the definitions are read with', 'SET search_path = side'],
  ])('catches a rollback that also %s, as a full reading does', async (_, extra) => {
    const { differences, full } = await roundTrip('ALTER TABLE blue ADD COLUMN z int', `ALTER TABLE blue DROP COLUMN z; ${extra}`);
    expect(full.length).toBeGreaterThan(0);
    expect(differences).toEqual(full);
  });
});
