import { quoteIdent, quoteLiteral } from '../../pg/quote';
import type { SchemaSnapshot } from '../schema-snapshot';
import { RANK, type DdlNode } from './ddl-statement';
import { label, qname } from './names';
import type { PolicyInfo, SchemaModel, TypeInfo } from './schema-model';

/** Schemas other than `public` (which every database has), then extensions other than plpgsql. */
export function schemaAndExtensionNodes(snapshot: SchemaSnapshot): DdlNode[] {
  const nodes: DdlNode[] = [];
  const ids = new Map((snapshot.model?.schemas ?? []).map((s) => [s.name, s.id]));
  const schemaId = (name: string): string => ids.get(name) ?? `nsp:${name}`;
  for (const s of snapshot.schemas) {
    if (s === 'public') continue;
    nodes.push({ id: schemaId(s), rank: RANK.schema, deps: [], statements: [{ object: s, kind: 'schema', sql: `CREATE SCHEMA ${quoteIdent(s)}` }] });
  }
  const created = new Set(snapshot.schemas);
  for (const e of snapshot.extensions) {
    if (e.name === 'plpgsql') continue;
    // A snapshot built by hand may name an extension's schema without listing it (introspection lists every schema).
    if (e.schema && e.schema !== 'pg_catalog' && !created.has(e.schema)) {
      created.add(e.schema);
      nodes.push({
        id: schemaId(e.schema),
        rank: RANK.schema,
        deps: [],
        statements: [{ object: e.schema, kind: 'schema', sql: `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(e.schema)}` }],
      });
    }
    const where = e.schema && e.schema !== 'pg_catalog' ? ` WITH SCHEMA ${quoteIdent(e.schema)}` : '';
    nodes.push({
      id: e.id ?? `ext:${e.name}`,
      rank: RANK.extension,
      deps: [schemaId(e.schema)],
      statements: [{ object: e.name, kind: 'extension', sql: `CREATE EXTENSION IF NOT EXISTS ${quoteIdent(e.name)}${where}` }],
    });
  }
  return nodes;
}

export function enumNodes(snapshot: SchemaSnapshot): DdlNode[] {
  return snapshot.enums.map((e) => ({
    id: e.id ?? `type:${label(e.schema, e.name)}`,
    rank: RANK.type,
    deps: [],
    statements: [
      {
        object: label(e.schema, e.name),
        kind: 'type' as const,
        sql: `CREATE TYPE ${qname(e.schema, e.name)} AS ENUM (${e.values.map(quoteLiteral).join(', ')})`,
      },
    ],
  }));
}

function typeSql(t: TypeInfo): string[] {
  const name = qname(t.schema, t.name);
  if (t.kind === 'composite') {
    const attrs = t.attributes.map((a) => `${quoteIdent(a.name)} ${a.data_type}${a.collation ? ` COLLATE ${a.collation}` : ''}`);
    return [`CREATE TYPE ${name} AS (${attrs.length ? `\n  ${attrs.join(',\n  ')}\n` : ''})`];
  }
  if (t.kind === 'range') {
    const opts = [`subtype = ${t.subtype}`];
    if (t.subtype_opclass) opts.push(`subtype_opclass = ${t.subtype_opclass}`);
    if (t.collation) opts.push(`collation = ${t.collation}`);
    if (t.canonical) opts.push(`canonical = ${t.canonical}`);
    if (t.subtype_diff) opts.push(`subtype_diff = ${t.subtype_diff}`);
    if (t.multirange) opts.push(`multirange_type_name = ${t.multirange}`);
    return [`CREATE TYPE ${name} AS RANGE (\n  ${opts.join(',\n  ')}\n)`];
  }
  let sql = `CREATE DOMAIN ${name} AS ${t.base_type}`;
  if (t.collation) sql += ` COLLATE ${t.collation}`;
  if (t.default !== null) sql += ` DEFAULT ${t.default}`;
  if (t.not_null) sql += ' NOT NULL';
  const later: string[] = [];
  for (const c of t.constraints) {
    // A NOT VALID check cannot be declared inline: it is added afterwards, as it was.
    if (c.validated) sql += `\n  CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`;
    else later.push(`ALTER DOMAIN ${name} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`);
  }
  return [sql, ...later];
}

const policySql = (p: PolicyInfo): string => {
  let sql = `CREATE POLICY ${quoteIdent(p.name)} ON ${qname(p.table_schema, p.table)}`;
  if (!p.permissive) sql += ' AS RESTRICTIVE';
  if (p.command !== 'ALL') sql += ` FOR ${p.command}`;
  const roles = p.roles.map((r) => (r === 'public' ? 'PUBLIC' : quoteIdent(r)));
  if (!(roles.length === 1 && roles[0] === 'PUBLIC')) sql += ` TO ${roles.join(', ')}`;
  if (p.using !== null) sql += ` USING (${p.using})`;
  if (p.with_check !== null) sql += ` WITH CHECK (${p.with_check})`;
  return sql;
};

const TRIGGER_STATE = { O: null, D: 'DISABLE TRIGGER', R: 'ENABLE REPLICA TRIGGER', A: 'ENABLE ALWAYS TRIGGER' } as const;

const stripSemicolon = (s: string): string => s.trim().replace(/;$/, '');

/** Types, routines, triggers, rules and policies of the schema model. */
export function modelNodes(model: SchemaModel, tableId: (schema: string, name: string) => string): DdlNode[] {
  const nodes: DdlNode[] = [];
  for (const t of model.types) {
    nodes.push({ id: t.id, rank: RANK.type, deps: [], statements: typeSql(t).map((sql) => ({ object: label(t.schema, t.name), kind: 'type' as const, sql })) });
  }
  for (const r of model.routines) {
    nodes.push({
      id: r.id,
      rank: RANK.routine,
      deps: [],
      statements: [{ object: `${label(r.schema, r.name)}(${r.identity_arguments})`, kind: 'routine', sql: stripSemicolon(r.definition) }],
    });
  }
  for (const t of model.triggers) {
    const object = `${label(t.table_schema, t.table)}.${t.name}`;
    const statements = [{ object, kind: 'trigger' as const, sql: t.definition }];
    const state = TRIGGER_STATE[t.enabled];
    if (state) statements.push({ object, kind: 'trigger', sql: `ALTER TABLE ${qname(t.table_schema, t.table)} ${state} ${quoteIdent(t.name)}` });
    nodes.push({ id: t.id, rank: RANK.trigger, deps: [tableId(t.table_schema, t.table)], statements });
  }
  for (const r of model.rules) {
    nodes.push({
      id: r.id,
      rank: RANK.rule,
      deps: [tableId(r.table_schema, r.table)],
      statements: [{ object: `${label(r.table_schema, r.table)}.${r.name}`, kind: 'rule', sql: stripSemicolon(r.definition) }],
    });
  }
  for (const s of model.statistics ?? []) {
    const object = label(s.schema, s.name);
    const statements = [{ object, kind: 'statistics' as const, sql: s.definition }];
    if (s.target !== null) statements.push({ object, kind: 'statistics', sql: `ALTER STATISTICS ${qname(s.schema, s.name)} SET STATISTICS ${s.target}` });
    nodes.push({ id: s.id, rank: RANK.index, deps: [tableId(s.table_schema, s.table)], statements });
  }
  for (const p of model.policies) {
    nodes.push({
      id: p.id,
      rank: RANK.policy,
      deps: [tableId(p.table_schema, p.table)],
      statements: [{ object: `${label(p.table_schema, p.table)}.${p.name}`, kind: 'policy', sql: policySql(p) }],
    });
  }
  return nodes;
}
