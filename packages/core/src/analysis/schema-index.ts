import type { ForeignKeyInfo, SchemaSnapshot, TableInfo } from '../introspection/schema-snapshot';
import { qualifiedName } from '../introspection/schema-snapshot';

/** A foreign key seen from either end. */
export interface FkEdge {
  /** `schema.name` of the referencing table. */
  from: string;
  /** `schema.name` of the referenced table. */
  to: string;
  fk: ForeignKeyInfo;
}

/** Lookups over a snapshot that every analysis step needs, built once per analysis. */
export interface SchemaIndex {
  snapshot: SchemaSnapshot;
  table(name: string): TableInfo | undefined;
  /** Foreign keys pointing at `name` (children). */
  referencing(name: string): FkEdge[];
  /** Foreign keys of `name` (parents). */
  referenced(name: string): FkEdge[];
  /** Views reading `table` (optionally a column of it). */
  viewsOn(table: string, column?: string): string[];
  /** Name of the index owning `indexName` -> its table. */
  tableOfIndex(indexName: string): string | undefined;
  /** Schemas unqualified names resolve in, in order: the snapshot's search path, `public` without one. */
  searchPath: readonly string[];
  /** Whether `schema.name` is a relation of the snapshot (table, view, index, sequence...). */
  hasRelation(qualified: string): boolean;
  /** Whether `schema.name` is an enum type of the snapshot. */
  hasType(qualified: string): boolean;
}

const PUBLIC_PATH: readonly string[] = ['public'];

/** Normalises `name` / `schema.name` to `schema.name` (public by default). */
export const qualify = (name: string): string => (name.includes('.') ? name : `public.${name}`);

const cache = new WeakMap<SchemaSnapshot, SchemaIndex>();

/** The lookups of a snapshot, built once per snapshot object (snapshots are not mutated). */
export function buildSchemaIndex(snapshot: SchemaSnapshot): SchemaIndex {
  let idx = cache.get(snapshot);
  if (!idx) cache.set(snapshot, (idx = createSchemaIndex(snapshot)));
  return idx;
}

function createSchemaIndex(snapshot: SchemaSnapshot): SchemaIndex {
  const tables = new Map<string, TableInfo>();
  const children = new Map<string, FkEdge[]>();
  const parents = new Map<string, FkEdge[]>();
  const indexes = new Map<string, string>();
  for (const t of snapshot.tables) {
    const q = qualifiedName(t);
    tables.set(q, t);
    for (const ix of t.indexes) indexes.set(`${t.schema}.${ix.name}`, q);
    for (const fk of t.foreign_keys) {
      const edge: FkEdge = { from: q, to: `${fk.referenced_schema}.${fk.referenced_table}`, fk };
      (parents.get(q) ?? parents.set(q, []).get(q)!).push(edge);
      (children.get(edge.to) ?? children.set(edge.to, []).get(edge.to)!).push(edge);
    }
  }
  // Only name resolution under a non-default search path reads these: built on first use.
  let relations: Set<string> | undefined;
  let types: Set<string> | undefined;
  return {
    snapshot,
    searchPath: snapshot.search_path?.length ? snapshot.search_path : PUBLIC_PATH,
    hasRelation: (q) => (relations ??= relationNames(snapshot)).has(q),
    hasType: (q) => (types ??= new Set(snapshot.enums.map(qualifiedName))).has(q),
    table: (n) => tables.get(qualify(n)),
    referencing: (n) => children.get(qualify(n)) ?? [],
    referenced: (n) => parents.get(qualify(n)) ?? [],
    viewsOn: (table, column) =>
      snapshot.view_dependencies.filter((d) => d.table === qualify(table) && (column === undefined || d.columns.includes(column))).map((d) => d.view),
    tableOfIndex: (n) => indexes.get(qualify(n)),
  };
}

/** Every relation name of the snapshot: relations, their indexes and the sequences (one namespace in PostgreSQL). */
function relationNames(snapshot: SchemaSnapshot): Set<string> {
  const out = new Set<string>();
  for (const t of snapshot.tables) {
    out.add(qualifiedName(t));
    for (const ix of t.indexes) out.add(`${t.schema}.${ix.name}`);
  }
  for (const s of snapshot.sequences) out.add(qualifiedName(s));
  return out;
}
