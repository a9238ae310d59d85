import { expect, it } from 'vitest';
import { rewrite } from '../testing/rewrite-fixtures';
import { selectStarNarrowingRule } from './select-star-narrowing';

const doc = (excerpt: string) => [{ document_id: 'd', document_filename: 'crm.md', chunk_index: 0, excerpt, relevance: 0.9 }];

it('narrows SELECT * to the columns the documents name, plus the key', async () => {
  expect(
    await rewrite(selectStarNarrowingRule, `SELECT * FROM customers WHERE region = 'north'`, doc('The mailing job reads each customer email and region.')),
  ).toEqual([`SELECT id, email, region FROM customers WHERE region = 'north'`]);
});

it('proposes nothing without documents or when they name no column', async () => {
  expect(await rewrite(selectStarNarrowingRule, `SELECT * FROM customers`)).toEqual([]);
  expect(await rewrite(selectStarNarrowingRule, `SELECT * FROM customers`, doc('Quarterly revenue targets.'))).toEqual([]);
});
