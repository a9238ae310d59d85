import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QUOTED_KEYWORDS } from './keywords';
import { quoteIdent, quoteLiteral, quoteQualified } from './quote';

// Compared with the real server's quote_ident / quote_literal, not with expectations written here.
let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: inject('targetDatabaseUrl') });
  await client.connect();
});
afterAll(() => client?.end());

const SAMPLES = [
  'order',
  'user',
  'group',
  'select',
  'Mixed Case',
  'plain',
  'with_digits1',
  '_x',
  '1abc',
  'a$b',
  'ümlaut',
  'say "hi"',
  'name',
  'value',
  'between',
  'left',
  'int',
  'time',
  'authorization',
  'current_user',
  '',
];

describe('quoting', () => {
  it('lists exactly the server’s keywords that are not unreserved', async () => {
    const { rows } = await client.query<{ word: string }>(`SELECT word FROM pg_get_keywords() WHERE catcode <> 'U'`);
    expect([...QUOTED_KEYWORDS].sort()).toEqual(rows.map((r) => r.word).sort());
  });

  it('quotes every keyword and sample identifier exactly as quote_ident does', async () => {
    const { rows: kw } = await client.query<{ word: string }>('SELECT word FROM pg_get_keywords()');
    const names = [...SAMPLES, ...kw.map((r) => r.word)];
    const { rows } = await client.query<{ q: string[] }>(
      'SELECT array_agg(quote_ident(n) ORDER BY i) AS q FROM unnest($1::text[]) WITH ORDINALITY AS t(n, i)',
      [names],
    );
    expect(names.map(quoteIdent)).toEqual(rows[0]!.q);
  });

  it('writes literals that read back as the value, backslashes and quotes included', async () => {
    for (const v of ["it's", 'back\\slash', "both \\ and '", '', 'plain']) {
      const { rows } = await client.query<{ v: string }>(`SELECT ${quoteLiteral(v)}::text AS v`);
      expect(rows[0]!.v).toBe(v);
    }
  });

  it('qualifies schema.name with each part quoted', () => {
    expect(quoteQualified('public.order')).toBe('public."order"');
    expect(quoteQualified('Sales.Mixed Case')).toBe('"Sales"."Mixed Case"');
  });
});
