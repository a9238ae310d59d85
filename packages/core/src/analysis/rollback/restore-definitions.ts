import { type AstNode, names } from '../ast';
import { qualify, type SchemaIndex } from '../schema-index';
import { quoteIdent, quoteLiteral, quoteQualified } from '../../pg/quote';
import type { DomainInfo } from '../../introspection/schema-model/schema-model';
import { previousTrigger } from './replaced-definitions';
import { findRoutine, routineName } from './routine-match';

// Undo of statements that drop or alter an object whose definition the snapshot holds: the
// object is put back from the schema model's own words (pg_get_functiondef, pg_get_triggerdef,
// the domain's constraints and default).

/** The undo of one statement: its SQL (null when there is none), whether it restores exactly, and why not. */
export interface Inverse {
  sql: string | null;
  reversible: boolean;
  warning: string | null;
}

const NOTHING = '-- nothing to undo';

const irreversible = (warning: string): Inverse => ({ sql: null, reversible: false, warning });

/** The snapshot routine an `ObjectWithArgs` of DROP FUNCTION/PROCEDURE/ROUTINE names (by name alone when no arguments are given and the name is unique). */
function droppedRoutine(owa: AstNode, schema: SchemaIndex) {
  if (owa.args_unspecified) {
    const { schema: s, name } = routineName(owa.objname as AstNode[], schema);
    const same = (schema.snapshot.model?.routines ?? []).filter((r) => r.schema === s && r.name === name && r.kind !== 'aggregate');
    return same.length === 1 ? same[0] : undefined;
  }
  const parameters =
    (owa.objfuncargs as AstNode[] | undefined) ??
    ((owa.objargs ?? []) as AstNode[]).map((a) => ({ FunctionParameter: { argType: a.TypeName, mode: 'FUNC_PARAM_DEFAULT' } }));
  return findRoutine({ funcname: owa.objname, parameters, replace: true }, schema);
}

/**
 * DROP FUNCTION / PROCEDURE / ROUTINE / TRIGGER undone by putting each object back as the
 * snapshot defines it (with its comment). CASCADE also drops what depends on them, which is not
 * put back; an object the snapshot does not hold cannot be restored, except under IF EXISTS,
 * where PostgreSQL dropped nothing.
 */
export function droppedRoutines(b: AstNode, schema: SchemaIndex): Inverse {
  const model = schema.snapshot.model;
  const comment = (id: string): string | null => model?.comments.find((c) => c.id === id)?.comment ?? null;
  const sql: string[] = [];
  const missing: string[] = [];
  for (const o of (b.objects ?? []) as AstNode[]) {
    if (String(b.removeType) === 'OBJECT_TRIGGER') {
      const parts = names(o.List?.items);
      const trig = parts.pop() ?? '';
      const table = qualify(parts.join('.'));
      const def = previousTrigger(table, trig, schema);
      if (!def) {
        missing.push(`trigger ${trig} on ${table}`);
        continue;
      }
      sql.push(def);
      const tr = model?.triggers.find((x) => `${x.table_schema}.${x.table}` === table && x.name === trig);
      const text = tr ? comment(tr.id) : null;
      if (text !== null) sql.push(`COMMENT ON TRIGGER ${quoteIdent(trig)} ON ${quoteQualified(table)} IS ${quoteLiteral(text)}`);
      continue;
    }
    const owa = o.ObjectWithArgs as AstNode | undefined;
    const r = owa ? droppedRoutine(owa, schema) : undefined;
    if (!r) {
      missing.push(`routine ${owa ? names(owa.objname as AstNode[]).join('.') : '?'}`);
      continue;
    }
    sql.push(r.definition.trim().replace(/;$/, ''));
    const text = comment(r.id);
    if (text !== null)
      sql.push(
        `COMMENT ON ${r.kind === 'procedure' ? 'PROCEDURE' : 'FUNCTION'} ${quoteIdent(r.schema)}.${quoteIdent(r.name)}(${r.identity_arguments}) IS ${quoteLiteral(text)}`,
      );
  }
  if (missing.length && !b.missing_ok) return irreversible(`${missing.join(', ')} not in the snapshot: it cannot be recreated`);
  if (!sql.length) return { sql: `${NOTHING}: ${missing.join(', ')} did not exist (IF EXISTS)`, reversible: true, warning: null };
  const cascade = b.behavior === 'DROP_CASCADE';
  return {
    sql: sql.join(';\n'),
    reversible: !cascade,
    warning: cascade ? 'objects dropped by CASCADE with it are not restored' : null,
  };
}

/** ALTER DOMAIN undone from the domain as the snapshot has it. */
export function inverseAlterDomain(b: AstNode, schema: SchemaIndex): Inverse {
  const name = qualify(names(b.typeName).join('.'));
  const dq = quoteQualified(name);
  const d = schema.snapshot.model?.types.find((t): t is DomainInfo => t.kind === 'domain' && `${t.schema}.${t.name}` === name);
  switch (String(b.subtype)) {
    case 'C': {
      const con = b.def?.Constraint as AstNode | undefined;
      // Unnamed, PostgreSQL calls a domain's CHECK <domain>_check (suffixed if taken).
      const conName = con?.conname ? String(con.conname) : `${name.split('.').pop()}_check`;
      return {
        sql: `ALTER DOMAIN ${dq} DROP CONSTRAINT ${quoteIdent(conName)}`,
        reversible: true,
        warning: con?.conname ? null : `assumes PostgreSQL's default name ${conName}`,
      };
    }
    case 'X': {
      const c = d?.constraints.find((x) => x.name === String(b.name));
      if (c) return { sql: `ALTER DOMAIN ${dq} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`, reversible: true, warning: null };
      return b.missing_ok
        ? { sql: `${NOTHING}: constraint ${String(b.name)} did not exist (IF EXISTS)`, reversible: true, warning: null }
        : irreversible(`constraint ${String(b.name)} of domain ${name} is not in the snapshot`);
    }
    case 'T':
      if (!d) return irreversible(`domain ${name} is not in the snapshot: its previous default is unknown`);
      return { sql: d.default ? `ALTER DOMAIN ${dq} SET DEFAULT ${d.default}` : `ALTER DOMAIN ${dq} DROP DEFAULT`, reversible: true, warning: null };
    case 'O':
      return d?.not_null ? { sql: NOTHING, reversible: true, warning: null } : { sql: `ALTER DOMAIN ${dq} DROP NOT NULL`, reversible: true, warning: null };
    case 'N':
      return d?.not_null
        ? { sql: `ALTER DOMAIN ${dq} SET NOT NULL`, reversible: true, warning: 'SET NOT NULL fails if NULLs were written in the meantime' }
        : { sql: NOTHING, reversible: true, warning: null };
    case 'V':
      return { sql: NOTHING, reversible: true, warning: null };
    default:
      return irreversible(`ALTER DOMAIN (${String(b.subtype)}) has no automatic inverse`);
  }
}
