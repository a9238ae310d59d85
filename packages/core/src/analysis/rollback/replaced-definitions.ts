import { type AstNode, names, rangeVarName } from '../ast';
import type { SchemaIndex } from '../schema-index';
import { quoteIdent, quoteLiteral, quoteQualified } from '../../pg/quote';
import { findRoutine } from './routine-match';

// What an object looked like before a CREATE OR REPLACE or COMMENT replaced it, read from the
// snapshot (the schema model's deparsed definitions), as SQL that puts it back.

/** CREATE OR REPLACE FUNCTION/PROCEDURE of the snapshot's definition of the routine the statement replaces. */
export function previousRoutine(body: AstNode, schema: SchemaIndex): string | null {
  const r = body.replace ? findRoutine(body, schema) : undefined;
  return r ? r.definition.trim().replace(/;$/, '') : null;
}

/** The snapshot's trigger `name` on `table`, as CREATE OR REPLACE TRIGGER (plus its disabled state). */
export function previousTrigger(table: string, name: string, schema: SchemaIndex): string | null {
  const [s, t] = [table.split('.')[0], table.split('.').slice(1).join('.')];
  const tr = schema.snapshot.model?.triggers.find((x) => x.table_schema === s && x.table === t && x.name === name);
  if (!tr) return null;
  const def = tr.definition.replace(/^CREATE (CONSTRAINT )?TRIGGER/i, (_m, c: string | undefined) => `CREATE OR REPLACE ${c ?? ''}TRIGGER`);
  if (tr.enabled === 'O') return def;
  const state = { D: 'DISABLE', R: 'ENABLE REPLICA', A: 'ENABLE ALWAYS' }[tr.enabled];
  return `${def};\nALTER TABLE ${quoteQualified(table)} ${state} TRIGGER ${quoteIdent(name)}`;
}

/** The snapshot's rule `name` on `table`, as CREATE OR REPLACE RULE. */
export function previousRule(table: string, name: string, schema: SchemaIndex): string | null {
  const [s, t] = [table.split('.')[0], table.split('.').slice(1).join('.')];
  const r = schema.snapshot.model?.rules.find((x) => x.table_schema === s && x.table === t && x.name === name);
  return r
    ? r.definition
        .trim()
        .replace(/;$/, '')
        .replace(/^CREATE RULE/i, 'CREATE OR REPLACE RULE')
    : null;
}

/** `COMMENT ON ... IS <previous>` for a CommentStmt, or null when the snapshot does not say what the comment was. */
export function previousComment(body: AstNode, schema: SchemaIndex): string | null {
  const objtype = String(body.objtype);
  const obj = body.object as AstNode | undefined;
  const list = obj?.List ? names(obj.List.items) : null;
  const qualify = (parts: string[]): string => (parts.length > 1 ? parts.join('.') : `${schema.searchPath[0] ?? 'public'}.${parts[0]}`);
  const restore = (target: string, text: string | null | undefined): string => `COMMENT ON ${target} IS ${text == null ? 'NULL' : quoteLiteral(text)}`;
  const model = schema.snapshot.model;
  const byId = (id: string | undefined): string | null => (id ? (model?.comments.find((c) => c.id === id)?.comment ?? null) : null);
  switch (objtype) {
    case 'OBJECT_TABLE':
    case 'OBJECT_VIEW':
    case 'OBJECT_MATVIEW':
    case 'OBJECT_FOREIGN_TABLE': {
      if (!list) return null;
      const t = schema.table(qualify(list));
      if (!t) return null;
      const word = { OBJECT_TABLE: 'TABLE', OBJECT_VIEW: 'VIEW', OBJECT_MATVIEW: 'MATERIALIZED VIEW', OBJECT_FOREIGN_TABLE: 'FOREIGN TABLE' }[objtype];
      return restore(`${word} ${quoteQualified(qualify(list))}`, t.comment);
    }
    case 'OBJECT_COLUMN': {
      if (!list || list.length < 2) return null;
      const col = list.pop()!;
      const t = schema.table(qualify(list));
      const c = t?.columns.find((x) => x.name === col);
      return c ? restore(`COLUMN ${quoteQualified(qualify(list))}.${quoteIdent(col)}`, c.comment) : null;
    }
    case 'OBJECT_INDEX': {
      if (!list) return null;
      const q = qualify(list);
      const table = schema.tableOfIndex(q);
      const ix = table ? schema.table(table)?.indexes.find((i) => i.name === q.split('.').pop()) : undefined;
      return ix && model ? restore(`INDEX ${quoteQualified(q)}`, byId(ix.id)) : null;
    }
    case 'OBJECT_FUNCTION':
    case 'OBJECT_PROCEDURE': {
      const owa = obj?.ObjectWithArgs as AstNode | undefined;
      if (!owa) return null;
      const r = findRoutine({ funcname: owa.objname, parameters: (owa.objfuncargs ?? []) as AstNode[], replace: true }, schema);
      if (!r) return null;
      const word = objtype === 'OBJECT_FUNCTION' ? 'FUNCTION' : 'PROCEDURE';
      return restore(`${word} ${quoteIdent(r.schema)}.${quoteIdent(r.name)}(${r.identity_arguments})`, byId(r.id));
    }
    case 'OBJECT_TABCONSTRAINT': {
      if (!list || list.length < 2) return null;
      const name = list.pop()!;
      const t = schema.table(qualify(list));
      const c = t?.constraints.find((x) => x.name === name) ?? t?.foreign_keys.find((x) => x.name === name);
      return c && model ? restore(`CONSTRAINT ${quoteIdent(name)} ON ${quoteQualified(qualify(list))}`, byId(c.id)) : null;
    }
    case 'OBJECT_TRIGGER': {
      if (!list || list.length < 2) return null;
      const name = list.pop()!;
      const q = qualify(list);
      const tr = model?.triggers.find((x) => `${x.table_schema}.${x.table}` === q && x.name === name);
      return tr ? restore(`TRIGGER ${quoteIdent(name)} ON ${quoteQualified(q)}`, byId(tr.id)) : null;
    }
    case 'OBJECT_TYPE':
    case 'OBJECT_DOMAIN': {
      const tn = obj?.TypeName as AstNode | undefined;
      const q = tn ? qualify(names(tn.names)) : null;
      if (!q || !model) return null;
      const ty = model.types.find((x) => `${x.schema}.${x.name}` === q) ?? schema.snapshot.enums.find((x) => `${x.schema}.${x.name}` === q);
      return ty ? restore(`${objtype === 'OBJECT_TYPE' ? 'TYPE' : 'DOMAIN'} ${quoteQualified(q)}`, byId(ty.id)) : null;
    }
    case 'OBJECT_SCHEMA': {
      const name = String(obj?.String?.sval ?? '');
      const s = model?.schemas.find((x) => x.name === name);
      return s ? restore(`SCHEMA ${quoteIdent(name)}`, byId(s.id)) : null;
    }
    default:
      return null;
  }
}

/** `schema.table` a CREATE TRIGGER / RULE names. */
export const relationOf = (body: AstNode): string => rangeVarName(body.relation);
