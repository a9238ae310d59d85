import type { SqlClient } from './plan-session';

export interface CatalogColumn {
  name: string;
  notNull: boolean;
  dataType: string;
  /** Average stored width from pg_stats, or the type's fixed length, or a guess. */
  avgWidth: number;
}

export interface CatalogIndex {
  name: string;
  /** Key columns in order; expressions as their text. */
  columns: string[];
  unique: boolean;
  predicate: string | null;
  method: string;
}

export interface CatalogForeignKey {
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
}

export interface CatalogTable {
  schema: string;
  name: string;
  rowEstimate: number;
  columns: Map<string, CatalogColumn>;
  indexes: CatalogIndex[];
  foreignKeys: CatalogForeignKey[];
  /** Writes since the statistics were reset (pg_stat_user_tables). */
  writes: { inserts: number; updates: number; deletes: number; seqScans: number; idxScans: number };
}

/**
 * What the optimizer reads about the tables a plan touches, straight from the live catalog so
 * recommendations never repeat an index created after the last schema snapshot.
 */
export type LiveCatalog = Map<string, CatalogTable>;

const key = (schema: string, name: string): string => `${schema}.${name}`;

export async function loadLiveCatalog(client: SqlClient, tables: Array<{ schema: string; name: string }>): Promise<LiveCatalog> {
  const catalog: LiveCatalog = new Map();
  if (tables.length === 0) return catalog;
  const names = tables.map((t) => key(t.schema, t.name));
  const rels = await client.query<{ oid: number; schema: string; name: string; reltuples: number }>(
    `SELECT c.oid::int AS oid, n.nspname AS schema, c.relname AS name, greatest(c.reltuples, 0)::float8 AS reltuples
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname || '.' || c.relname = ANY($1::text[])`,
    [names],
  );
  const oids = rels.rows.map((r) => r.oid);
  // One client runs one query at a time: these are awaited in turn.
  const cols = await client.query<{ oid: number; name: string; not_null: boolean; data_type: string; width: number }>(
    `SELECT a.attrelid::int AS oid, a.attname AS name, a.attnotnull AS not_null,
              format_type(a.atttypid, a.atttypmod) AS data_type,
              coalesce(s.avg_width, nullif(t.typlen, -1), 32)::int AS width
         FROM pg_attribute a
         JOIN pg_type t ON t.oid = a.atttypid
         JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = a.attname
        WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped`,
    [oids],
  );
  const idx = await client.query<{ oid: number; name: string; columns: string[]; unique: boolean; predicate: string | null; method: string }>(
    `SELECT i.indrelid::int AS oid, ic.relname AS name, i.indisunique AS unique, am.amname AS method,
              pg_get_expr(i.indpred, i.indrelid) AS predicate,
              array(SELECT pg_get_indexdef(i.indexrelid, k, true) FROM generate_series(1, i.indnkeyatts) AS k ORDER BY k) AS columns
         FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam
        WHERE i.indrelid = ANY($1::oid[]) AND i.indisvalid`,
    [oids],
  );
  const fks = await client.query<{ oid: number; columns: string[]; ref_table: string; ref_columns: string[] }>(
    `SELECT co.conrelid::int AS oid,
              array(SELECT a.attname FROM unnest(co.conkey) WITH ORDINALITY AS k(n, o) JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns,
              rn.nspname || '.' || rc.relname AS ref_table,
              array(SELECT a.attname FROM unnest(co.confkey) WITH ORDINALITY AS k(n, o) JOIN pg_attribute a ON a.attrelid = co.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS ref_columns
         FROM pg_constraint co JOIN pg_class rc ON rc.oid = co.confrelid JOIN pg_namespace rn ON rn.oid = rc.relnamespace
        WHERE co.contype = 'f' AND co.conrelid = ANY($1::oid[])`,
    [oids],
  );
  const stats = await client.query<{ oid: number; ins: string; upd: string; del: string; seq: string; idx: string }>(
    `SELECT relid::int AS oid, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_del AS del,
              coalesce(seq_scan, 0) AS seq, coalesce(idx_scan, 0) AS idx
         FROM pg_stat_user_tables WHERE relid = ANY($1::oid[])`,
    [oids],
  );
  for (const r of rels.rows) {
    const s = stats.rows.find((x) => x.oid === r.oid);
    catalog.set(key(r.schema, r.name), {
      schema: r.schema,
      name: r.name,
      rowEstimate: Number(r.reltuples),
      columns: new Map(
        cols.rows.filter((c) => c.oid === r.oid).map((c) => [c.name, { name: c.name, notNull: c.not_null, dataType: c.data_type, avgWidth: c.width }]),
      ),
      indexes: idx.rows
        .filter((i) => i.oid === r.oid)
        .map((i) => ({ name: i.name, columns: i.columns, unique: i.unique, predicate: i.predicate, method: i.method })),
      foreignKeys: fks.rows.filter((f) => f.oid === r.oid).map((f) => ({ columns: f.columns, referencedTable: f.ref_table, referencedColumns: f.ref_columns })),
      writes: {
        inserts: Number(s?.ins ?? 0),
        updates: Number(s?.upd ?? 0),
        deletes: Number(s?.del ?? 0),
        seqScans: Number(s?.seq ?? 0),
        idxScans: Number(s?.idx ?? 0),
      },
    });
  }
  return catalog;
}

/** Finds a table by plan or query name: qualified, or unqualified in `public` first. */
export function findTable(catalog: LiveCatalog, name: string, schema?: string): CatalogTable | undefined {
  if (schema) return catalog.get(key(schema, name));
  return catalog.get(key('public', name)) ?? [...catalog.values()].find((t) => t.name === name);
}
