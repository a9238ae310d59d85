import type { Queryable } from '../store/store';

/** The part of a database's catalog the execution result reports on. */
export interface CatalogState {
  /** Display name (see {@link displayName}) -> columns name -> `format_type` text. */
  tables: Map<string, Map<string, string>>;
  /** `schema.index` of every INVALID index (a failed CREATE INDEX CONCURRENTLY leaves one). */
  invalidIndexes: Set<string>;
}

/** What a migration changed: the spec's `result` without the timing. */
export interface CatalogDiff {
  tables_added: string[];
  tables_removed: string[];
  columns_added: Array<{ table: string; column: string; type: string }>;
}

/** `orders` for the public schema, `sales.orders` elsewhere: what users write themselves. */
export const displayName = (schema: string, name: string): string => (schema === 'public' ? name : `${schema}.${name}`);

const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg_temp_%' AND n.nspname NOT LIKE 'pg_toast_temp_%'`;

/** Reads tables (ordinary and partitioned), their columns and INVALID indexes. */
export async function readCatalog(db: Queryable): Promise<CatalogState> {
  const cols = await db.query<{ schema: string; name: string; column: string | null; type: string | null }>(
    `SELECT n.nspname AS schema, c.relname AS name, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relkind IN ('r', 'p') AND ${USER_SCHEMAS}
      ORDER BY n.nspname, c.relname, a.attnum`,
  );
  const tables = new Map<string, Map<string, string>>();
  for (const row of cols.rows) {
    const key = displayName(row.schema, row.name);
    const columns = tables.get(key) ?? new Map<string, string>();
    if (row.column !== null && row.type !== null) columns.set(row.column, row.type);
    tables.set(key, columns);
  }
  const invalid = await db.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT i.indisvalid AND ${USER_SCHEMAS}`,
  );
  return { tables, invalidIndexes: new Set(invalid.rows.map((r) => `${r.schema}.${r.name}`)) };
}

/**
 * Tables added and removed, and columns added to tables that existed before (a new table's
 * columns come with the table). A renamed table shows as one removed and one added.
 */
export function diffCatalog(before: CatalogState, after: CatalogState): CatalogDiff {
  const tables_added = [...after.tables.keys()].filter((t) => !before.tables.has(t)).sort();
  const tables_removed = [...before.tables.keys()].filter((t) => !after.tables.has(t)).sort();
  const columns_added: CatalogDiff['columns_added'] = [];
  for (const [table, columns] of after.tables) {
    const old = before.tables.get(table);
    if (!old) continue;
    for (const [column, type] of columns) if (!old.has(column)) columns_added.push({ table, column, type });
  }
  return { tables_added, tables_removed, columns_added };
}

/** INVALID indexes present now that were not before the run. */
export const newInvalidIndexes = (before: CatalogState, after: CatalogState): string[] =>
  [...after.invalidIndexes].filter((i) => !before.invalidIndexes.has(i)).sort();
