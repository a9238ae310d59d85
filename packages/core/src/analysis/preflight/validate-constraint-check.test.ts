import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { only, type PreflightFixture, preflightFixture } from '../../../../../test/support/preflight';

let fx: PreflightFixture;
beforeAll(async () => {
  fx = await preflightFixture(`
    CREATE TABLE parents (id int PRIMARY KEY);
    INSERT INTO parents SELECT generate_series(1, 100);
    CREATE TABLE kids (id int PRIMARY KEY, parent_id int, age int);
    INSERT INTO kids SELECT g, g % 100 + 1, g % 18 FROM generate_series(1, 1000) g;
    INSERT INTO kids VALUES (2000, 555, -3);
    ALTER TABLE kids ADD CONSTRAINT kids_parent FOREIGN KEY (parent_id) REFERENCES parents NOT VALID;
    ALTER TABLE kids ADD CONSTRAINT kids_age CHECK (age >= 0) NOT VALID;
    ALTER TABLE kids ADD CONSTRAINT kids_age_small CHECK (age < 100) NOT VALID;
  `);
});
afterAll(() => fx.drop());

describe('preflight: VALIDATE CONSTRAINT', () => {
  it('checks NOT VALID CHECK and foreign key constraints from the live catalog', async () => {
    const c = only(await fx.preflight('ALTER TABLE kids VALIDATE CONSTRAINT kids_age'), 'preflight_validate_constraint');
    expect(c.status).toBe('failed');
    expect(c.detail).toContain('id = 2000');
    const f = only(await fx.preflight('ALTER TABLE kids VALIDATE CONSTRAINT kids_parent'), 'preflight_validate_constraint');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('e.g. 555');
    expect(only(await fx.preflight('ALTER TABLE kids VALIDATE CONSTRAINT kids_age_small'), 'preflight_validate_constraint').status).toBe('passed');
    expect(only(await fx.preflight('ALTER TABLE kids VALIDATE CONSTRAINT nope'), 'preflight_validate_constraint').status).toBe('skipped');
  });
});
