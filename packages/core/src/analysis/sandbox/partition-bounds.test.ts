import { describe, expect, it } from 'vitest';
import { parsePartitionBound, parsePartitionKey } from './partition-bounds';

describe('partition bounds and keys as PostgreSQL prints them', () => {
  it('reads list, range, hash and default bounds', () => {
    expect(parsePartitionBound("FOR VALUES IN ('de', 'it''s', NULL)")).toEqual({ kind: 'list', values: [{ text: 'de' }, { text: "it's" }, { null: true }] });
    expect(parsePartitionBound("FOR VALUES FROM ('2022-01-01 00:00:00+00') TO ('2022-02-01 00:00:00+00')")).toEqual({
      kind: 'range',
      from: [{ text: '2022-01-01 00:00:00+00' }],
      to: [{ text: '2022-02-01 00:00:00+00' }],
    });
    expect(parsePartitionBound('FOR VALUES FROM (MINVALUE, -5) TO (100, MAXVALUE)')).toEqual({
      kind: 'range',
      from: [{ min: true }, { text: '-5' }],
      to: [{ text: '100' }, { max: true }],
    });
    expect(parsePartitionBound('FOR VALUES WITH (modulus 4, remainder 3)')).toEqual({ kind: 'hash', modulus: 4, remainder: 3 });
    expect(parsePartitionBound('DEFAULT')).toEqual({ kind: 'default' });
    expect(parsePartitionBound(null)).toBeUndefined();
    expect(parsePartitionBound('FOR VALUES IN (now())')).toBeUndefined();
  });

  it('reads key columns, and marks expression keys', () => {
    expect(parsePartitionKey('RANGE (payment_date)', ['payment_date'])).toEqual({ strategy: 'range', columns: ['payment_date'] });
    expect(parsePartitionKey('LIST ("Region", kind text_pattern_ops)', ['Region', 'kind'])).toEqual({ strategy: 'list', columns: ['Region', 'kind'] });
    expect(parsePartitionKey('HASH (lower(name))', ['name'])).toEqual({ strategy: 'hash', columns: undefined });
  });
});
