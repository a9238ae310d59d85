import { describe, expect, it } from 'vitest';
import { chunkSql, splitSqlStatements } from './chunk-sql';

describe('SQL chunking', () => {
  it('splits at the statement boundaries the parser reports, keeping leading comments', async () => {
    const script = `CREATE TABLE orders (id int, note text DEFAULT 'a;b');\n-- refunds live here\nCREATE TABLE refunds (id int);\nCREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;\nSELECT 'é;' AS x`;
    expect(await splitSqlStatements(script)).toEqual([
      "CREATE TABLE orders (id int, note text DEFAULT 'a;b');",
      '-- refunds live here\nCREATE TABLE refunds (id int);',
      'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;',
      "SELECT 'é;' AS x;",
    ]);
  });

  it('groups small statements and never splits one across chunks', async () => {
    const stmts = Array.from({ length: 40 }, (_, i) => `CREATE TABLE t${i} (id bigint PRIMARY KEY, name text NOT NULL, created_at timestamptz);`);
    const chunks = await chunkSql(stmts.join('\n'));
    expect(chunks.length).toBeGreaterThan(1);
    for (const s of stmts) expect(chunks.filter((c) => c.content.includes(s))).toHaveLength(1);
    expect(chunks[0]!.heading).toBe(stmts[0]);
  });

  it('falls back to text chunking when the script does not parse', async () => {
    expect(await splitSqlStatements('SELEC oops FROM')).toBeNull();
    const chunks = await chunkSql('SELEC oops FROM\n\nmore words');
    expect(chunks.map((c) => c.content)).toEqual(['SELEC oops FROM\n\nmore words']);
  });
});
