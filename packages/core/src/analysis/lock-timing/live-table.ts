import { quoteIdent, quoteQualified } from '../../pg/quote';

/** A client for read-only catalog questions (the caller runs them in a READ ONLY transaction). */
export interface FeatureClient {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Runs one question the analysis can do without (a count, a plan, a sample) under a savepoint:
 * its rows, or null when it failed (ran out of time, named a column an earlier statement of the
 * migration adds), the READ ONLY transaction still usable either way.
 */
export async function optionalQuery(client: FeatureClient, text: string): Promise<unknown[] | null> {
  await client.query('SAVEPOINT dbops_optional');
  try {
    const res = await client.query(text);
    await client.query('RELEASE SAVEPOINT dbops_optional');
    return res.rows;
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT dbops_optional').catch(() => undefined);
    return null;
  }
}

/** PostgreSQL's first OID for objects created after initdb (FirstNormalObjectId): below it, built-in. */
export const FIRST_USER_OID = 16384;

/** Column `column` of table `oid`: its type's OID, category (`pg_type.typcategory`) and element type (0 for none); null when there is no such column. */
export async function columnType(client: FeatureClient, oid: number, column: string): Promise<{ type: number; category: string; elem: number } | null> {
  const res = await client.query(
    `SELECT t.oid::int AS type, t.typcategory AS category, t.typelem::int AS elem
       FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid WHERE a.attrelid = $1 AND a.attname = $2 AND NOT a.attisdropped`,
    [oid, column],
  );
  return (res.rows[0] as { type: number; category: string; elem: number } | undefined) ?? null;
}

/** Percent of a heap of `heapBytes` that a page sample of about `sampleBytes` reads (0.01-100). */
export const samplePercent = (heapBytes: number, sampleBytes: number): number => Math.max(0.01, Math.min(100, (100 * sampleBytes) / Math.max(1, heapBytes)));

export interface LiveTable {
  oid: number;
  /** The table's name as the statement gave it, quoted for SQL. */
  ref: string;
  rows: number;
  heap: number;
  /** Bytes of the table's TOAST relation (values stored out of line). */
  toast: number;
  idx: number;
  indexBytes: number;
  sharedBuffers: number;
}

/**
 * A table's size as a statement on it meets it. A partitioned table stores nothing itself
 * (`relpages` 0, and `reltuples` only after an ANALYZE of the parent): its rows, pages, TOAST and
 * index bytes are its leaf partitions', summed; its index count is the parent's (each partitioned
 * index has one in every leaf).
 */
export async function liveTable(client: FeatureClient, name: string): Promise<LiveTable | null> {
  const res = await client.query(
    `WITH c AS (SELECT c.oid, c.relkind FROM pg_class c WHERE c.oid = to_regclass($1)),
          leaf AS (SELECT l.oid, l.reltuples::float8 AS rows, l.relpages::float8 * current_setting('block_size')::int AS heap, l.reltoastrelid
                     FROM c, pg_class l
                    WHERE l.oid IN (SELECT p.relid FROM pg_partition_tree(c.oid) p WHERE p.isleaf) OR (c.relkind <> 'p' AND l.oid = c.oid))
     SELECT c.oid::int AS oid,
            (SELECT coalesce(sum(CASE WHEN leaf.rows < 0 THEN leaf.heap / 100 ELSE leaf.rows END), 0) FROM leaf)::float8 AS rows,
            (SELECT coalesce(sum(leaf.heap), 0) FROM leaf)::float8 AS heap,
            (SELECT coalesce(sum(pg_relation_size(leaf.reltoastrelid)), 0) FROM leaf WHERE leaf.reltoastrelid <> 0)::float8 AS toast,
            (SELECT count(*)::int FROM pg_index i WHERE i.indrelid = c.oid) AS idx,
            (SELECT coalesce(sum(pg_relation_size(i.indexrelid)), 0)::float8 FROM pg_index i WHERE i.indrelid IN (SELECT leaf.oid FROM leaf)) AS idx_bytes,
            pg_size_bytes(current_setting('shared_buffers'))::float8 AS sb
       FROM c`,
    [quoteQualified(name)],
  );
  const r = res.rows[0] as { oid: number; rows: number; heap: number; toast: number; idx: number; idx_bytes: number; sb: number } | undefined;
  if (!r) return null;
  // A leaf never analyzed (reltuples -1) counts 100 bytes a row, as a first figure.
  return {
    oid: r.oid,
    ref: quoteQualified(name),
    rows: Number(r.rows),
    heap: Number(r.heap),
    toast: Number(r.toast),
    idx: r.idx,
    indexBytes: Number(r.idx_bytes),
    sharedBuffers: Number(r.sb),
  };
}

/** Values at least this large (as stored) are out of line: PostgreSQL moves values out of a row past about 2 kB. */
const OUT_OF_LINE_BYTES = 2000;

/**
 * TOAST bytes per row of `columns` in `t`: the stored size of the values kept out of line,
 * averaged over a page sample (`pg_column_size` reads a value's TOAST pointer, not the value).
 * Zero without a TOAST relation of any size; names that are not variable-width columns of the table are left out.
 */
export async function toastedBytesPerRow(client: FeatureClient, t: LiveTable, columns: Iterable<string>, sampleBytes: number): Promise<number> {
  if (t.toast < 1e6) return 0;
  // Only the table's variable-width columns among the names (an expression's names include its functions).
  const res = await client.query(
    `SELECT array_agg(attname::text) AS names FROM pg_attribute WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped AND attlen = -1 AND attname = ANY ($2)`,
    [t.oid, [...new Set(columns)]],
  );
  const names = ((res.rows[0] as { names?: string[] | null } | undefined)?.names ?? []).filter(Boolean);
  if (names.length === 0) return 0;
  const percent = samplePercent(t.heap, sampleBytes);
  const sums = names.map(
    (n) => `coalesce(avg(CASE WHEN pg_column_size(${quoteIdent(n)}) >= ${OUT_OF_LINE_BYTES} THEN pg_column_size(${quoteIdent(n)}) ELSE 0 END), 0)`,
  );
  // A sample past its time: no TOAST figure.
  const sample = await optionalQuery(
    client,
    `SELECT (${sums.join(' + ')})::float8 AS per_row FROM ${t.ref} TABLESAMPLE SYSTEM (${percent.toFixed(4)}) REPEATABLE (32)`,
  );
  return Number((sample?.[0] as { per_row?: number } | undefined)?.per_row ?? 0);
}
