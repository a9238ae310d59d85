import { describe, expect, it } from 'vitest';
import type { ColumnInfo } from '../../introspection/schema-snapshot';
import { listedValues, syntheticValue } from './synthetic-values';

const col = (over: Partial<ColumnInfo>): ColumnInfo => ({
  name: 'c',
  ordinal: 1,
  data_type: 'text',
  udt_name: 'text',
  nullable: false,
  default: null,
  identity: null,
  generated: null,
  comment: null,
  ...over,
});
const ctx = { enums: new Map(), domains: new Map() };

describe('synthetic values', () => {
  it("reads the values a CHECK lists, in PostgreSQL's own deparsed forms", () => {
    expect(listedValues("CHECK ((plan = ANY (ARRAY['free'::text, 'pro'::text])))", 'plan')).toEqual(['free', 'pro']);
    expect(listedValues("CHECK (((plan)::text = ANY ((ARRAY['free'::character varying, 'it''s'::character varying])::text[])))", 'plan')).toEqual([
      'free',
      "it's",
    ]);
    expect(listedValues('CHECK (("Plan" = \'gold\'::text))', 'Plan')).toEqual(['gold']);
    expect(listedValues('CHECK ((level = ANY (ARRAY[1, 2, 3])))', 'level')).toEqual(['1', '2', '3']);
    expect(listedValues("CHECK ((VALUE = ANY (ARRAY['a'::text, 'b'::text])))", 'VALUE')).toEqual(['a', 'b']);
    expect(listedValues('CHECK ((amount > 0))', 'amount')).toBeUndefined();
    expect(listedValues("CHECK ((other = ANY (ARRAY['x'::text])))", 'plan')).toBeUndefined();
  });

  it('follows the live data: numbers in a text column stay numbers, keys take distinct histogram bounds', () => {
    const zip = col({ name: 'zip', stats: { null_frac: 0, common: ['75001', '10115'], bounds: ['01000', '50000', '99999'] } });
    expect([1, 2, 3].map((i) => syntheticValue(zip, i, ctx))).toEqual(['75001', '10115', '75001']);
    expect([1, 2, 3].map((i) => syntheticValue(zip, i, ctx, { distinct: true }))).toEqual(['01000', '50000', '99999']);
    // Fewer bounds than rows: made-up distinct values instead.
    expect(syntheticValue(zip, 4, ctx, { distinct: true })).toBe('zip_4');
    expect(syntheticValue(col({ name: 'plan' }), 2, ctx, { allowed: ['free', 'pro'] })).toBe('pro');
  });

  it('gives a domain a value of its base type', () => {
    const domains = new Map([
      [
        'money_cents',
        {
          kind: 'domain' as const,
          id: 't',
          schema: 'public',
          name: 'money_cents',
          base_type: 'bigint',
          collation: null,
          default: null,
          not_null: false,
          constraints: [],
        },
      ],
    ]);
    expect(syntheticValue(col({ udt_name: 'money_cents', data_type: 'money_cents' }), 7, { enums: new Map(), domains })).toBe('7');
  });
});
