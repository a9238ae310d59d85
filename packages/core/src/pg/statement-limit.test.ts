import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../errors/validation-error';
import { ensureParser } from './parser';
import { assertStatementLimit, statementCountOver } from './statement-limit';

describe('statement limit', () => {
  it('counts with one scan under the bound, and exactly with the parser over it', async () => {
    await ensureParser();
    expect(statementCountOver('SELECT 1; SELECT 2', 5)).toBe(2);
    // Semicolons in strings, dollar quotes and comments are not statements.
    expect(statementCountOver("SELECT ';;;;'; SELECT $$;;;$$ /* ;; */", 2)).toBe(2);
    // Empty statements and comments push the scan's bound over, the parser's count is exact.
    expect(statementCountOver('SELECT 1;;;;;;; -- ;\n', 2)).toBe(1);
    expect(statementCountOver('SELECT 1;'.repeat(11), 10)).toBe(11);
  });

  it('leaves text that does not parse to the caller’s own parse', async () => {
    await ensureParser();
    expect(statementCountOver('SELEC 1;'.repeat(11), 10)).toBeNull();
  });

  it('refuses with the spec validation entry', () => {
    expect(() => assertStatementLimit(10, 10)).not.toThrow();
    const error = (() => {
      try {
        assertStatementLimit(11, 10);
      } catch (e) {
        return e;
      }
    })() as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([
      {
        loc: ['body', 'sql'],
        msg: expect.stringContaining('at most 10 statements, not 11'),
        type: 'too_many_statements',
        input: null,
        ctx: { max_statements: 10, statements: 11 },
      },
    ]);
  });
});
