import { describe, expect, it } from 'vitest';
import { leadingComments } from './leading-comments';
import { splitStatements } from './parser';

describe('leadingComments', () => {
  it('reads the comments a split statement keeps before its first token, block comments nested', async () => {
    const sql = 'BEGIN;\n-- dbops:batched key=id\n/* outer /* inner */ still outer */\nUPDATE t SET a = 1 -- not leading\n;COMMIT';
    const [, update] = await splitStatements(sql);
    expect(leadingComments(update!.sql)).toEqual(['dbops:batched key=id', 'outer /* inner */ still outer']);
  });

  it('stops at the first token and gives nothing for a statement without comments', () => {
    expect(leadingComments('UPDATE t SET a = 1 /* later */')).toEqual([]);
    expect(leadingComments('  -- only\n\n  --  two  \nDELETE FROM t')).toEqual(['only', 'two']);
    expect(leadingComments('/* unterminated')).toEqual([]);
  });
});
