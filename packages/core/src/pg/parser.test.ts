import { describe, expect, it } from 'vitest';
import { SqlSyntaxError, splitStatements, statementIndexAt } from './parser';

describe('splitStatements', () => {
  it('cuts at the parser’s locations, with character offsets and lines, across multibyte text', async () => {
    const sql = "-- header\nSELECT 'ünïcødé; not a split' AS a;\n\n/* x; */ INSERT INTO t VALUES ($$;$$);\nSELECT 'é'\n  , 2";
    const stmts = await splitStatements(sql);
    expect(stmts.map((s) => s.kind)).toEqual(['SelectStmt', 'InsertStmt', 'SelectStmt']);
    for (const s of stmts) expect(sql.slice(s.offset, s.offset + s.sql.length)).toBe(s.sql);
    expect(stmts.map((s) => s.line)).toEqual([1, 4, 5]);
    expect(stmts[2]!.sql).toBe("SELECT 'é'\n  , 2");
  });

  it('gives the same cut for many statements as for few (one pass over the text)', async () => {
    const one = "SELECT 'ø' AS x";
    const sql = Array.from({ length: 5000 }, () => one).join(';\n');
    const stmts = await splitStatements(sql);
    expect(stmts).toHaveLength(5000);
    expect(stmts.every((s, i) => s.sql === one && s.line === i + 1 && sql.slice(s.offset, s.offset + one.length) === one)).toBe(true);
  });

  it('reports a syntax error with PostgreSQL’s message and a 1-based position', async () => {
    const err = await splitStatements('SELECT 1; SELEC 2').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqlSyntaxError);
    expect((err as SqlSyntaxError).message).toContain('syntax error at or near "SELEC"');
    expect((err as SqlSyntaxError).position).toBe(11);
    expect(statementIndexAt('SELECT 1; SELEC 2', 10)).toBe(1);
  });
});
