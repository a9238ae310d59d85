import { describe, expect, it } from 'vitest';
import { batchAnnotationComment, readBatchAnnotation } from './batched-annotation';

describe('the dbops:batched annotation', () => {
  it('reads what it writes, a quoted key included', () => {
    const comment = batchAnnotationComment({ key: 'Order Id', size: 250, pauseMs: 20 });
    expect(comment).toBe('-- dbops:batched key="Order Id" size=250 pause_ms=20');
    expect(readBatchAnnotation(`${comment}\nUPDATE t SET a = 1`)).toEqual({ key: 'Order Id', size: 250, pauseMs: 20 });
  });

  it('folds a bare key to lower case, fills the defaults, and finds the marker among other leading comments', () => {
    expect(readBatchAnnotation('-- backfill\n/* dbops:batched key=ID */\nUPDATE t SET a = 1')).toEqual({ key: 'id', size: 5000, pauseMs: 0 });
  });

  it('is absent from a statement without it, or with it after the first token', () => {
    expect(readBatchAnnotation('-- just a note\nUPDATE t SET a = 1')).toBeNull();
    expect(readBatchAnnotation('UPDATE t SET a = 1 -- dbops:batched key=id')).toBeNull();
    expect(readBatchAnnotation('-- dbops:batchedness\nUPDATE t SET a = 1')).toBeNull();
  });

  it.each([
    ['-- dbops:batched size=10', 'key=<column> is required'],
    ['-- dbops:batched key=id size=0', 'size must be a whole number from 1 to 1000000'],
    ['-- dbops:batched key=id size=ten', 'size must be a whole number'],
    ['-- dbops:batched key=id pause_ms=-1', 'pause_ms must be a whole number'],
    ['-- dbops:batched key=id rows=5', 'unknown option rows'],
    ['-- dbops:batched key=id key=x', 'key is given twice'],
    ['-- dbops:batched key="id', 'unterminated quoted key'],
    ['-- dbops:batched key id', 'cannot read "key"'],
    ['-- dbops:batched key=a\n-- dbops:batched key=b', 'more than one dbops:batched comment'],
  ])('refuses %j', (comment, error) => {
    expect(readBatchAnnotation(`${comment}\nUPDATE t SET a = 1`)).toEqual({ error: expect.stringContaining(error) });
  });
});
