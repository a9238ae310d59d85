import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { parseStatements } from './parse-statements';

describe('parseStatements', () => {
  it('keeps the original text of each statement, comments and multi-byte characters included', async () => {
    const sql =
      "-- première étape\nALTER TABLE t ADD COLUMN naïve text DEFAULT 'é';\n/* two */ CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;\nSELECT 'ü'";
    const s = await parseStatements(sql);
    expect(s.map((x) => x.sql)).toEqual([
      "-- première étape\nALTER TABLE t ADD COLUMN naïve text DEFAULT 'é'",
      '/* two */ CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql',
      "SELECT 'ü'",
    ]);
    expect(s.map((x) => x.line)).toEqual([1, 3, 4]);
  });

  it('names the statement index, line and parser message of a syntax error', async () => {
    const err = await parseStatements("SELECT ';';\nSELECT 1;\n\nALTER TABLE t ADD COLUM x int;").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('SQL_PARSE_ERROR');
    expect((err as AppError).status).toBe(422);
    expect((err as AppError).details).toMatchObject({ statement_index: 2, line: 4 });
    expect((err as AppError).message).toMatch(/syntax error at or near "int"/);
  });

  it('rejects input without statements', async () => {
    await expect(parseStatements('-- nothing')).rejects.toMatchObject({ code: 'SQL_PARSE_ERROR' });
  });
});
