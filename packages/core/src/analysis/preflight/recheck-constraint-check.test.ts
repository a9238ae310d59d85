import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { only, type PreflightFixture, preflightFixture } from '../../../../../test/support/preflight';

let fx: PreflightFixture;
beforeAll(async () => {
  fx = await preflightFixture(`
    CREATE TABLE handles (id int PRIMARY KEY, name varchar(20) NOT NULL CONSTRAINT handles_name_long CHECK (length(name) >= 2),
                          score numeric(8,2) NOT NULL CONSTRAINT handles_score_positive CHECK (score > 0), note varchar(10));
    INSERT INTO handles SELECT g, 'h' || g, g, NULL FROM generate_series(1, 2000) g;
  `);
});
afterAll(() => fx.drop());

describe('preflight: CHECK constraints a type change checks again', () => {
  it('reads every row for the CHECKs on a column widened without a rewrite, and nothing for a column no CHECK reads', async () => {
    const widened = only(
      await fx.preflight('ALTER TABLE handles ALTER COLUMN name TYPE varchar(40)', {}, undefined, { liveSchema: true }),
      'preflight_recheck_constraint',
    );
    expect(widened.status).toBe('passed');
    expect(widened.sampled).toBe(false);
    expect(widened.detail).toMatch(/ALTER COLUMN name TYPE on public\.handles: the CHECK constraints reading it checked again: every row satisfies it/);
    // A numeric widened, and a column no CHECK reads (a catalog change: no task).
    expect(
      only(await fx.preflight('ALTER TABLE handles ALTER COLUMN score TYPE numeric(10,2)', {}, undefined, { liveSchema: true }), 'preflight_recheck_constraint')
        .status,
    ).toBe('passed');
    const plain = await fx.preflight('ALTER TABLE handles ALTER COLUMN note TYPE varchar(20)', {}, undefined, { liveSchema: true });
    expect(plain.findings.filter((f) => f.check === 'preflight_recheck_constraint')).toEqual([]);
  });
});
