import { describe, expect, it } from 'vitest';
import { classifyAtomicDefinition, classifyFunctionBody, scanProceduralBody } from './classify-statement';
import { parseSql } from './parse-sql';

const worst = (findings: Array<{ kind: string }>): string => {
  const order = ['select', 'dml', 'ddl', 'other'];
  return findings.reduce((w, f) => (order.indexOf(f.kind) > order.indexOf(w) ? f.kind : w), 'select');
};

describe('function bodies', () => {
  it('reads SQL bodies statement by statement', async () => {
    await parseSql('SELECT 1'); // loads the parser
    const b = classifyFunctionBody('sql', "SELECT count(*) FROM dblink('x', 'SELECT 1') AS r(a int)", 'function f()');
    expect(worst(b.findings)).toBe('other');
    expect(b.functions).toContainEqual({ schema: null, name: 'count' });
    expect(worst(classifyFunctionBody('sql', 'CREATE TABLE x (a int); SELECT 1', 'function f()').findings)).toBe('ddl');
    expect(worst(classifyFunctionBody('sql', 'INSERT INTO audit DEFAULT VALUES RETURNING 1', 'function f()').findings)).toBe('dml');
    const pure = classifyFunctionBody('sql', 'SELECT $1 + lower($2)', 'function f()');
    expect(pure.findings).toEqual([]);
    expect(pure.operators).toContain('+');
    expect(pure.functions).toContainEqual({ schema: null, name: 'lower' });
  });

  it('reads BEGIN ATOMIC bodies from the definition', async () => {
    await parseSql('SELECT 1');
    const def =
      'CREATE OR REPLACE FUNCTION public.f()\n RETURNS integer\n LANGUAGE sql\n STABLE\nBEGIN ATOMIC\n SELECT pg_terminate_backend(1);\n INSERT INTO t VALUES (1);\nEND';
    const b = classifyAtomicDefinition(def, 'function f()');
    expect(b.findings.map((f) => f.kind).sort()).toEqual(['dml', 'other']);
  });

  it('scans PL/pgSQL word by word, erring towards refusal', () => {
    expect(worst(scanProceduralBody("BEGIN PERFORM dblink_exec('x', 'y'); RETURN 1; END", 'f').findings)).toBe('other');
    expect(worst(scanProceduralBody("BEGIN COPY (SELECT 1) TO PROGRAM 'id'; END", 'f').findings)).toBe('other');
    expect(worst(scanProceduralBody('BEGIN CREATE TABLE x (a int); END', 'f').findings)).toBe('ddl');
    expect(worst(scanProceduralBody('BEGIN UPDATE t SET a = 1; END', 'f').findings)).toBe('dml');
    expect(worst(scanProceduralBody('DECLARE created_at int; BEGIN RETURN 1; END', 'f').findings)).toBe('select');
    expect(scanProceduralBody("BEGIN EXECUTE 'SELECT ' || x; END", 'f').opaque).toMatch(/dynamic SQL/);
    expect(scanProceduralBody('BEGIN RETURN my_helper (1) + other(2); END', 'f').functions.map((f) => f.name)).toEqual(['my_helper', 'other']);
  });

  it('calls other languages opaque', () => {
    expect(classifyFunctionBody('plpython3u', 'return 1', 'function f()').opaque).toMatch(/plpython3u/);
    expect(classifyFunctionBody('c', 'f', 'function f()').opaque).toMatch(/ c,/);
  });
});
