import { describe, expect, it } from 'vitest';
import { markdownTable } from './markdown-table';

describe('markdownTable', () => {
  it('renders rows, escapes pipes and line breaks, spells NULL and counts rows', () => {
    expect(
      markdownTable(
        ['a', 'b'],
        [
          [1, 'x|y'],
          [null, 'line\nbreak'],
        ],
        false,
        500,
      ),
    ).toBe(['| a | b |', '| --- | --- |', '| 1 | x\\|y |', '| NULL | line break |', '', '2 rows.'].join('\n'));
  });
  it('says when rows were capped, and handles one and zero rows', () => {
    expect(markdownTable(['n'], [[1]], true, 1)).toMatch(/1 rows shown; the result had more and was capped at 1 rows\.$/);
    expect(markdownTable(['n'], [[1]], false, 500)).toMatch(/\n1 row\.$/);
    expect(markdownTable(['n'], [], false, 500)).toBe('| n |\n| --- |\n\n0 rows.');
  });
});
