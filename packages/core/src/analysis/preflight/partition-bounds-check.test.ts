import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { only, type PreflightFixture, preflightFixture } from '../../../../../test/support/preflight';

let fx: PreflightFixture;
beforeAll(async () => {
  fx = await preflightFixture(`
    CREATE TABLE events (id int, at date NOT NULL, kind text) PARTITION BY RANGE (at);
    CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
    CREATE TABLE events_rest PARTITION OF events DEFAULT;
    INSERT INTO events VALUES (1, '2024-05-01', 'a'), (2, '2025-03-03', 'b'), (3, '2026-07-07', 'c');
    CREATE TABLE events_2025 (id int, at date NOT NULL, kind text);
    INSERT INTO events_2025 VALUES (10, '2025-02-02', 'x'), (11, '2027-01-01', 'y');
    CREATE TABLE events_2030 (id int, at date NOT NULL, kind text);
    INSERT INTO events_2030 VALUES (20, '2030-06-01', 'z');
    CREATE TABLE regions (id int, region text) PARTITION BY LIST (region);
    CREATE TABLE regions_eu PARTITION OF regions FOR VALUES IN ('de', 'fr');
    CREATE TABLE h (id int) PARTITION BY HASH (id);
    CREATE TABLE h0 PARTITION OF h FOR VALUES WITH (MODULUS 4, REMAINDER 0);
  `);
});
afterAll(() => fx.drop());

describe('preflight: partition bounds', () => {
  it('ATTACH PARTITION fails on rows outside the bound and on default-partition rows inside it', async () => {
    const f = only(
      await fx.preflight("ALTER TABLE events ATTACH PARTITION events_2025 FOR VALUES FROM ('2025-01-01') TO ('2026-01-01')"),
      'preflight_partition',
    );
    expect(f.status).toBe('failed');
    expect(f.detail).toContain('the bound check of public.events_2025 would fail: 1 row(s) violate it');
    expect(f.detail).toContain('at = 2027-01-01');
    expect(f.detail).toContain('the default partition events_rest (its rows must lie outside the new bound) would fail: 1 row(s)');
    expect(f.detail).toContain('at = 2025-03-03');
    expect(
      only(await fx.preflight("ALTER TABLE events ATTACH PARTITION events_2030 FOR VALUES FROM ('2030-01-01') TO (MAXVALUE)"), 'preflight_partition').status,
    ).toBe('passed');
  });

  it('new partitions: overlapping bounds and default-partition rows', async () => {
    const o = only(await fx.preflight("CREATE TABLE events_h2 PARTITION OF events FOR VALUES FROM ('2024-06-01') TO ('2024-09-01')"), 'preflight_partition');
    expect(o.status).toBe('failed');
    expect(o.detail).toContain('overlaps partition(s) events_2024');
    const d = only(await fx.preflight("CREATE TABLE events_26 PARTITION OF events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01')"), 'preflight_partition');
    expect(d.detail).toContain('at = 2026-07-07');
    expect(only(await fx.preflight("CREATE TABLE regions_fr PARTITION OF regions FOR VALUES IN ('fr', 'it')"), 'preflight_partition').detail).toContain(
      'regions_eu',
    );
    expect(only(await fx.preflight("CREATE TABLE regions_it PARTITION OF regions FOR VALUES IN ('it', NULL)"), 'preflight_partition').status).toBe('passed');
    expect(only(await fx.preflight('CREATE TABLE h4 PARTITION OF h FOR VALUES WITH (MODULUS 8, REMAINDER 4)'), 'preflight_partition').status).toBe('failed');
    expect(only(await fx.preflight('CREATE TABLE h1 PARTITION OF h FOR VALUES WITH (MODULUS 4, REMAINDER 1)'), 'preflight_partition').status).toBe('passed');
  });
});
