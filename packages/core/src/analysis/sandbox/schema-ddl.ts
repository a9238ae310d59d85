import { quoteIdent, quoteLiteral, quoteQualified } from '../../pg/quote';
import type { ColumnInfo, SchemaSnapshot, TableInfo } from '../../introspection/schema-snapshot';
import { qualifiedName } from '../../introspection/schema-snapshot';

/** One regenerated DDL statement and the object it creates (to report what could not be cloned). */
export interface DdlStep {
  object: string;
  kind: 'schema' | 'extension' | 'enum' | 'sequence' | 'table' | 'foreign_key' | 'index' | 'view';
  sql: string;
}

export function columnDdl(c: ColumnInfo): string {
  let s = `${quoteIdent(c.name)} ${c.data_type}`;
  if (c.generated === 'stored' && c.default) return `${s} GENERATED ALWAYS AS (${c.default}) STORED`;
  if (c.identity) s += ` GENERATED ${c.identity === 'always' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`;
  else if (c.default !== null) s += ` DEFAULT ${c.default}`;
  if (!c.nullable) s += ' NOT NULL';
  return s;
}

/** CREATE TABLE for one table with its columns, constraints and the foreign keys given in `inlineFks`. */
export function createTableDdl(t: TableInfo, inlineFks: readonly TableInfo['foreign_keys'][number][] = []): string {
  const name = quoteQualified(qualifiedName(t));
  if (t.partition_of) return `CREATE TABLE ${name} PARTITION OF ${quoteQualified(t.partition_of)} ${t.partition_bound ?? 'DEFAULT'}`;
  const parts = [...t.columns].sort((a, b) => a.ordinal - b.ordinal).map(columnDdl);
  for (const c of t.constraints) parts.push(`CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`);
  for (const fk of inlineFks) parts.push(`CONSTRAINT ${quoteIdent(fk.name)} ${fk.definition}`);
  const partition = t.kind === 'partitioned_table' && t.partition_key ? ` PARTITION BY ${t.partition_key}` : '';
  return `CREATE TABLE ${name} (\n  ${parts.join(',\n  ')}\n)${partition}`;
}

/** Secondary indexes (those not backing a constraint) of a table. */
export function indexDdls(t: TableInfo): string[] {
  if (t.partition_of) return [];
  const constraintNames = new Set(t.constraints.map((c) => c.name));
  return t.indexes.filter((i) => !i.is_primary && !constraintNames.has(i.name)).map((i) => i.definition);
}

export const foreignKeyDdls = (t: TableInfo, only: readonly TableInfo['foreign_keys'][number][] = t.foreign_keys): string[] =>
  only.map((fk) => `ALTER TABLE ${quoteQualified(qualifiedName(t))} ADD CONSTRAINT ${quoteIdent(fk.name)} ${fk.definition}${fk.validated || /NOT VALID/i.test(fk.definition) ? '' : ' NOT VALID'}`);

/** Tables ordered parents first along foreign keys (cycles broken arbitrarily), partitioned parents before partitions. */
export function tablesInDependencyOrder(snapshot: SchemaSnapshot): TableInfo[] {
  const tables = snapshot.tables.filter((t) => t.kind === 'table' || t.kind === 'partitioned_table');
  const byName = new Map(tables.map((t) => [qualifiedName(t), t]));
  const out: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: TableInfo): void => {
    const q = qualifiedName(t);
    if (state.get(q)) return;
    state.set(q, 'visiting');
    const deps = [...t.foreign_keys.map((f) => `${f.referenced_schema}.${f.referenced_table}`), ...(t.partition_of ? [t.partition_of] : [])];
    for (const d of deps) {
      const p = byName.get(d);
      if (p && d !== q && !state.get(d)) visit(p);
    }
    state.set(q, 'done');
    out.push(t);
  };
  for (const t of tables) visit(t);
  return out;
}

/** The whole schema as DDL in dependency order: schemas, extensions, enums, sequences, tables, FKs, indexes, views. */
export function schemaDdl(snapshot: SchemaSnapshot): DdlStep[] {
  const steps: DdlStep[] = [];
  for (const s of snapshot.schemas) if (s !== 'public') steps.push({ object: s, kind: 'schema', sql: `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(s)}` });
  for (const e of snapshot.extensions) {
    if (e.name === 'plpgsql') continue;
    // In the schema it was installed in (types then resolve as `schema.type`, as the snapshot names them).
    const own = e.schema && e.schema !== 'public' && e.schema !== 'pg_catalog';
    if (own && !snapshot.schemas.includes(e.schema)) steps.push({ object: e.schema, kind: 'schema', sql: `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(e.schema)}` });
    steps.push({ object: e.name, kind: 'extension', sql: `CREATE EXTENSION IF NOT EXISTS ${quoteIdent(e.name)}${own ? ` SCHEMA ${quoteIdent(e.schema)}` : ''}` });
  }
  for (const e of snapshot.enums) steps.push({ object: `${e.schema}.${e.name}`, kind: 'enum', sql: `CREATE TYPE ${quoteQualified(`${e.schema}.${e.name}`)} AS ENUM (${e.values.map(quoteLiteral).join(', ')})` });
  const identityCols = new Set(snapshot.tables.flatMap((t) => t.columns.filter((c) => c.identity).map((c) => `${qualifiedName(t)}.${c.name}`)));
  for (const s of snapshot.sequences) {
    if (s.owned_by && identityCols.has(s.owned_by)) continue;
    steps.push({ object: `${s.schema}.${s.name}`, kind: 'sequence', sql: `CREATE SEQUENCE IF NOT EXISTS ${quoteQualified(`${s.schema}.${s.name}`)} AS ${s.data_type}` });
  }
  const ordered = tablesInDependencyOrder(snapshot);
  // Validated FKs to a table created earlier go inline (fewer statements); self references,
  // cycles and NOT VALID ones are added after all tables exist.
  const created = new Set<string>();
  const deferred = new Map<TableInfo, TableInfo['foreign_keys']>();
  for (const t of ordered) {
    const q = qualifiedName(t);
    const inline = t.partition_of ? [] : t.foreign_keys.filter((fk) => fk.validated && created.has(`${fk.referenced_schema}.${fk.referenced_table}`) && `${fk.referenced_schema}.${fk.referenced_table}` !== q);
    deferred.set(t, t.foreign_keys.filter((fk) => !inline.includes(fk)));
    steps.push({ object: q, kind: 'table', sql: createTableDdl(t, inline) });
    created.add(q);
  }
  for (const t of ordered) for (const sql of foreignKeyDdls(t, deferred.get(t))) steps.push({ object: qualifiedName(t), kind: 'foreign_key', sql });
  for (const t of ordered) for (const sql of indexDdls(t)) steps.push({ object: qualifiedName(t), kind: 'index', sql });
  for (const v of snapshot.tables) {
    if ((v.kind !== 'view' && v.kind !== 'materialized_view') || !v.view_definition) continue;
    const body = v.view_definition.trim().replace(/;$/, '');
    steps.push({ object: qualifiedName(v), kind: 'view', sql: `CREATE ${v.kind === 'view' ? 'VIEW' : 'MATERIALIZED VIEW'} ${quoteQualified(qualifiedName(v))} AS ${body}` });
  }
  return steps;
}
