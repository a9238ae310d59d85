import { type AstNode, names } from '../ast';
import type { SchemaIndex } from '../schema-index';
import type { RoutineInfo } from '../../introspection/schema-model/schema-model';
import { deparse } from '../../pg/deparse';
import { quoteIdent } from '../../pg/quote';

// A CREATE [OR REPLACE] FUNCTION/PROCEDURE names a routine by name and input argument types; the
// snapshot names it by `pg_get_function_identity_arguments` ("a integer, b text"). Both are
// brought to format_type's words so the routine the statement replaces can be found.

const ALIASES: Record<string, string> = {
  int: 'integer',
  int4: 'integer',
  int8: 'bigint',
  int2: 'smallint',
  float8: 'double precision',
  float4: 'real',
  float: 'double precision',
  bool: 'boolean',
  varchar: 'character varying',
  bpchar: 'character',
  char: 'character',
  decimal: 'numeric',
  timestamptz: 'timestamp with time zone',
  timestamp: 'timestamp without time zone',
  timetz: 'time with time zone',
  time: 'time without time zone',
  varbit: 'bit varying',
};

/** One type in format_type's words, without typmods, quotes or schema. */
function normType(text: string): string {
  let t = text
    .toLowerCase()
    .replace(/"/g, '')
    .replace(/\([^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const arr = /(\[\])+$/.exec(t)?.[0] ?? '';
  t = t.slice(0, t.length - arr.length).trim();
  t = t.includes(' ') ? t : (t.split('.').pop() ?? t);
  return `${ALIASES[t] ?? t}${arr}`;
}

const INPUT_MODES = new Set(['FUNC_PARAM_IN', 'FUNC_PARAM_INOUT', 'FUNC_PARAM_VARIADIC', 'FUNC_PARAM_DEFAULT']);

/** The input parameters' TypeNames of a CreateFunctionStmt (those that make up its identity). */
export function inputArgTypes(body: AstNode): AstNode[] {
  const out: AstNode[] = [];
  for (const p of (body.parameters ?? []) as AstNode[]) {
    const fp = p.FunctionParameter as AstNode | undefined;
    if (fp && INPUT_MODES.has(String(fp.mode ?? 'FUNC_PARAM_DEFAULT'))) out.push(fp.argType as AstNode);
  }
  return out;
}

/** `schema.name` of a routine named by a name list, unqualified names in the creation schema. */
export function routineName(list: AstNode[] | undefined, schema: SchemaIndex): { schema: string; name: string } {
  const parts = names(list);
  const name = parts.pop() ?? '';
  return { schema: parts.pop() ?? schema.searchPath[0] ?? 'public', name };
}

/** The routine of the snapshot a CREATE [OR REPLACE] FUNCTION/PROCEDURE statement names, if any. */
export function findRoutine(body: AstNode, schema: SchemaIndex): RoutineInfo | undefined {
  const { schema: s, name } = routineName(body.funcname as AstNode[], schema);
  const wanted = inputArgTypes(body).map((tn) => normType(deparse({ TypeName: tn })));
  return (schema.snapshot.model?.routines ?? []).find((r) => {
    if (r.schema !== s || r.name !== name || r.kind === 'aggregate') return false;
    const parts = r.identity_arguments ? r.identity_arguments.split(/,\s*(?![^(]*\))/) : [];
    if (parts.length !== wanted.length) return false;
    return parts.every((part, k) => {
      const p = part.replace(/\s+DEFAULT\s+.*$/i, '').trim();
      const w = wanted[k]!;
      const have = normType(p);
      return have === w || have.endsWith(` ${w}`) || normType(p.split(' ').slice(1).join(' ')) === w;
    });
  });
}

/** DROP FUNCTION/PROCEDURE of the routine a CreateFunctionStmt creates, with its input types (overloads stay). */
export function dropRoutineSql(body: AstNode, schema: SchemaIndex): string {
  const { schema: s, name } = routineName(body.funcname as AstNode[], schema);
  const args = inputArgTypes(body).map((tn) => deparse({ TypeName: tn }));
  return `DROP ${body.is_procedure ? 'PROCEDURE' : 'FUNCTION'} ${quoteIdent(s)}.${quoteIdent(name)}(${args.join(', ')})`;
}
