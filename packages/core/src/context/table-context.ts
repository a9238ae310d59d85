import type { ColumnInfo, ConstraintInfo, ForeignKeyInfo, IndexInfo, RelationKind, SchemaSnapshot, TableInfo } from '../introspection/schema-snapshot';
import { qualifiedName } from '../introspection/schema-snapshot';

/** A foreign key of another table that points at this one. */
export interface IncomingForeignKey {
  /** `schema.name` of the referencing table. */
  table: string;
  name: string;
  columns: string[];
  referenced_columns: string[];
  on_delete: ForeignKeyInfo['on_delete'];
}

/** Schema metadata of one requested table, as the context query returns it. */
export interface TableContext {
  /** `schema.name`. */
  name: string;
  schema: string;
  table: string;
  kind: RelationKind;
  comment: string | null;
  row_estimate: number;
  /** Heap, indexes and TOAST in bytes (`pg_total_relation_size`); the console's schema browser shows it. */
  total_bytes: number;
  columns: ColumnInfo[];
  primary_key: string[] | null;
  constraints: ConstraintInfo[];
  foreign_keys: ForeignKeyInfo[];
  referenced_by: IncomingForeignKey[];
  indexes: IndexInfo[];
}

const unquote = (s: string): string => s.trim().replace(/^"(.*)"$/, '$1');

/**
 * The snapshot tables a requested name refers to: "schema.name" exactly (case-insensitively as
 * a fallback), a bare name in every schema that has it, `public` first.
 */
export function resolveTables(snapshot: SchemaSnapshot, requested: string): TableInfo[] {
  const parts = requested.split('.').map(unquote);
  const name = parts.at(-1) ?? '';
  const schema = parts.length > 1 ? parts.slice(0, -1).join('.') : undefined;
  const match = (exact: boolean) =>
    snapshot.tables.filter((t) => {
      const eq = (a: string, b: string): boolean => (exact ? a === b : a.toLowerCase() === b.toLowerCase());
      return eq(t.name, name) && (schema === undefined || eq(t.schema, schema));
    });
  const found = match(true).length > 0 ? match(true) : match(false);
  return [...found].sort((a, b) => Number(b.schema === 'public') - Number(a.schema === 'public') || a.schema.localeCompare(b.schema));
}

/** Metadata for `requested` tables from the snapshot, plus the names it does not know. */
export function tableContext(snapshot: SchemaSnapshot, requested: readonly string[]): { tables: TableContext[]; missing_tables: string[] } {
  const tables = new Map<string, TableInfo>();
  const missing: string[] = [];
  for (const r of requested) {
    const found = resolveTables(snapshot, r);
    if (found.length === 0) missing.push(r);
    for (const t of found) tables.set(qualifiedName(t), t);
  }
  return {
    tables: [...tables.values()].map((t) => ({
      name: qualifiedName(t),
      schema: t.schema,
      table: t.name,
      kind: t.kind,
      comment: t.comment,
      row_estimate: t.row_estimate,
      total_bytes: t.total_bytes,
      columns: t.columns,
      primary_key: t.primary_key,
      constraints: t.constraints,
      foreign_keys: t.foreign_keys,
      referenced_by: snapshot.tables.flatMap((o) =>
        o.foreign_keys
          .filter((fk) => fk.referenced_schema === t.schema && fk.referenced_table === t.name)
          .map((fk) => ({ table: qualifiedName(o), name: fk.name, columns: fk.columns, referenced_columns: fk.referenced_columns, on_delete: fk.on_delete })),
      ),
      indexes: t.indexes,
    })),
    missing_tables: missing,
  };
}
