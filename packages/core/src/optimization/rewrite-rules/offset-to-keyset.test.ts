import { expect, it } from 'vitest';
import { rewrite } from '../testing/rewrite-fixtures';
import { offsetToKeysetRule } from './offset-to-keyset';

it('rewrites OFFSET over a unique NOT NULL sort key, numbering the new parameter after existing ones', async () => {
  expect(await rewrite(offsetToKeysetRule, 'SELECT * FROM orders WHERE qty = $1 ORDER BY id DESC LIMIT 10 OFFSET 100')).toEqual([
    'SELECT * FROM orders WHERE qty = $1 AND orders.id < $2 ORDER BY id DESC LIMIT 10',
  ]);
});

it('leaves non-unique keys, mixed directions and aggregates alone', async () => {
  expect(await rewrite(offsetToKeysetRule, 'SELECT * FROM orders ORDER BY created_at LIMIT 10 OFFSET 100')).toEqual([]);
  expect(await rewrite(offsetToKeysetRule, 'SELECT * FROM orders ORDER BY created_at DESC, id LIMIT 10 OFFSET 100')).toEqual([]);
  expect(await rewrite(offsetToKeysetRule, 'SELECT id, count(*) FROM orders GROUP BY id ORDER BY id LIMIT 10 OFFSET 100')).toEqual([]);
});
