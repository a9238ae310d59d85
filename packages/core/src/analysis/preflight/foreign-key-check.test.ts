import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { only, type PreflightFixture, preflightFixture } from '../../../../../test/support/preflight';

let fx: PreflightFixture;
beforeAll(async () => {
  fx = await preflightFixture(`
    CREATE TABLE customers (id int PRIMARY KEY, region text, code int, UNIQUE (region, code));
    INSERT INTO customers SELECT g, 'eu', g FROM generate_series(1, 1000) g;
    CREATE TABLE orders (id int PRIMARY KEY, customer_id int, region text, code int);
    INSERT INTO orders SELECT g, 1 + g % 1000, 'eu', 1 + g % 1000 FROM generate_series(1, 4000) g;
    INSERT INTO orders VALUES (5001, 4242, 'eu', 4242), (5002, NULL, 'us', NULL);
  `);
});
afterAll(() => fx.drop());

describe('preflight: orphans', () => {
  it('fails ADD FOREIGN KEY on orphan rows (primary key by default), ignores NULL keys', async () => {
    const f = only(await fx.preflight('ALTER TABLE orders ADD CONSTRAINT fk FOREIGN KEY (customer_id) REFERENCES customers'), 'preflight_foreign_key');
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('1 row(s) reference no row of public.customers');
    expect(f.detail).toContain('e.g. 4242');
  });

  it('MATCH FULL also fails keys set in part', async () => {
    const simple = only(await fx.preflight('ALTER TABLE orders ADD FOREIGN KEY (region, code) REFERENCES customers (region, code)'), 'preflight_foreign_key');
    expect(simple.detail).toContain('1 row(s)');
    const full = only(
      await fx.preflight('ALTER TABLE orders ADD FOREIGN KEY (region, code) REFERENCES customers (region, code) MATCH FULL'),
      'preflight_foreign_key',
    );
    expect(full.detail).toContain('2 row(s)');
  });

  it('does not check NOT VALID constraints, passes clean data', async () => {
    expect((await fx.preflight('ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers NOT VALID')).findings).toEqual([]);
    const r = await fx.preflight('DELETE FROM orders WHERE id > 5000; ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers');
    expect(only(r, 'preflight_foreign_key').status).toBe('skipped');
    const clean = only(await fx.preflight('ALTER TABLE customers ADD FOREIGN KEY (id) REFERENCES customers (id)'), 'preflight_foreign_key');
    expect(clean.status).toBe('passed');
  });
});
