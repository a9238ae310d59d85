import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { only, type PreflightFixture, preflightFixture } from '../../../../../test/support/preflight';

let fx: PreflightFixture;
beforeAll(async () => {
  fx = await preflightFixture(`
    CREATE TYPE mood AS ENUM ('happy', 'sad');
    CREATE TABLE people (id int PRIMARY KEY, nickname text, legacy text, notes text, m mood);
    CREATE VIEW people_nicks AS SELECT id, nickname FROM people;
    CREATE TABLE pets (id int PRIMARY KEY, owner int REFERENCES people);
    CREATE TABLE lonely (id int);
    CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.legacy := upper(NEW.legacy); RETURN NEW; END $$;
    CREATE TRIGGER people_touch BEFORE INSERT OR UPDATE ON people FOR EACH ROW EXECUTE FUNCTION touch();
    CREATE FUNCTION count_notes() RETURNS bigint LANGUAGE sql AS $$ SELECT count(notes) FROM people $$;
    CREATE FUNCTION is_happy(x mood) RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN RETURN x = 'happy'; END $$;
  `);
});
afterAll(() => fx.drop());

describe('preflight: what still reads a dropped object', () => {
  it('DROP COLUMN read by a view fails without CASCADE and is noted with it', async () => {
    const f = only(await fx.preflight('ALTER TABLE people DROP COLUMN nickname'), 'preflight_dependents');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('people_nicks');
    const c = only(await fx.preflight('ALTER TABLE people DROP COLUMN nickname CASCADE'), 'preflight_dependents');
    expect(c.status).toBe('passed');
    expect(c.detail).toContain('CASCADE also drops view(s) people_nicks');
  });

  it('DROP COLUMN read by a trigger on the table fails; functions reading it are named', async () => {
    const t = only(await fx.preflight('ALTER TABLE people DROP COLUMN legacy'), 'preflight_dependents');
    expect(t.status).toBe('failed');
    expect(t.detail).toContain('people_touch (touch())');
    const n = only(await fx.preflight('ALTER TABLE people DROP COLUMN notes'), 'preflight_dependents');
    expect(n.status).toBe('passed');
    expect(n.detail).toContain('count_notes()');
  });

  it('DROP TABLE with views or foreign keys on it fails without CASCADE', async () => {
    const f = only(await fx.preflight('DROP TABLE people'), 'preflight_dependents');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('people_nicks');
    expect(f.detail).toContain('pets.pets_owner_fkey');
    expect(only(await fx.preflight('DROP TABLE lonely'), 'preflight_dependents').status).toBe('passed');
  });

  it('DROP TABLE whose dependents an earlier statement removes is left to the sandbox, which runs the statements in order', async () => {
    const ok = only(await fx.preflight('ALTER TABLE pets DROP CONSTRAINT pets_owner_fkey; DROP VIEW people_nicks; DROP TABLE people'), 'preflight_dependents');
    expect(ok.status).toBe('passed');
    expect(ok.detail).toContain(
      'view people_nicks, constraint pets.pets_owner_fkey belong to objects the migration changes or drops before or with this statement',
    );
    // One statement dropping the referencing table with the referenced one.
    const together = (await fx.preflight('DROP VIEW people_nicks; DROP TABLE pets, people')).findings.filter((f) => f.check === 'preflight_dependents');
    expect(together.map((f) => f.status)).toEqual(['passed', 'passed']);
    expect(together.find((f) => f.detail.includes('people:'))?.detail).toContain(
      'constraint pets.pets_owner_fkey belong to objects the migration changes or drops',
    );
    // Removing only the foreign key first still leaves the view reading the table.
    const view = only(await fx.preflight('ALTER TABLE pets DROP CONSTRAINT pets_owner_fkey; DROP TABLE people'), 'preflight_dependents');
    expect(view.status).toBe('failed');
    expect(view.detail).toContain('view(s) people_nicks read it');
    expect(view.detail).not.toContain('foreign key(s)');
  });

  it('enum RENAME VALUE names functions that use the old label', async () => {
    const f = only(await fx.preflight("ALTER TYPE mood RENAME VALUE 'happy' TO 'glad'"), 'preflight_dependents');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('is_happy(mood)');
    expect(only(await fx.preflight("ALTER TYPE mood RENAME VALUE 'sad' TO 'blue'"), 'preflight_dependents').status).toBe('passed');
  });
});
