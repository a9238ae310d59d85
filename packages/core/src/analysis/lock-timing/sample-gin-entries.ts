import { quoteIdent } from '../../pg/quote';
import { columnType, type FeatureClient, optionalQuery } from './live-table';
import { percentText, samplePages } from './sample-pages';

/** GIN entries of a page sample of a `jsonb` column, as a GIN index on it extracts them. */
export interface JsonbEntrySample {
  percent: number;
  rows: number;
  /** Entries over the sampled rows: each row's distinct ones, at least one (a NULL or empty value takes a placeholder). */
  entries: number;
}

/** `jsonb`'s OID, fixed in PostgreSQL's catalog (`pg_type.dat`). */
const JSONB_OID = 3802;

/**
 * Rows counted at most: a value's entries are read by walking it, 5-45 us a row on PostgreSQL 15
 * (the nested ones through a JSON path), so a cap keeps the read to tens of milliseconds.
 */
const MAX_ROWS = 2000;

/** A share of the count sample, as the lexeme sample takes: the rows come from its first pages. */
const ENTRY_SAMPLE_FRACTION = 1 / 8;

/**
 * The distinct entries of one value `v` (a column reference): under `jsonb_ops` every key and
 * every scalar at any depth, under `jsonb_path_ops` every scalar with the path to it (approximated
 * by its top-level key). Top-level members are read flat; only nested containers pay a JSON path.
 */
function entriesOf(v: string, pathOps: boolean): string {
  const scalar = (x: string) => `jsonb_typeof(${x}) NOT IN ('object', 'array')`;
  const container = (x: string) => `jsonb_typeof(${x}) IN ('object', 'array')`;
  const path = (k: string) => (pathOps ? `coalesce(${k}, '') || ` : '');
  const keys = pathOps
    ? ''
    : `SELECT 'k' || i.k FROM i WHERE i.k IS NOT NULL
       UNION ALL SELECT 'k' || nk FROM i, jsonb_path_query(i.x, 'strict $.** ? (@.type() == "object")') o(y), jsonb_object_keys(o.y) nk WHERE ${container('i.x')}
       UNION ALL `;
  return `(WITH i AS (SELECT key AS k, value AS x FROM jsonb_each(CASE WHEN jsonb_typeof(${v}) = 'object' THEN ${v} END)
                      UNION ALL SELECT NULL, value FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${v}) = 'array' THEN ${v} END)
                      UNION ALL SELECT NULL, ${v} WHERE ${scalar(v)})
           SELECT greatest(1, count(DISTINCT e)) FROM (
             ${keys}SELECT 'v' || ${path('i.k')}i.x::text FROM i WHERE ${scalar('i.x')}
             UNION ALL SELECT 'v' || ${path('i.k')}n.y::text FROM i, jsonb_path_query(i.x, 'strict $.** ? (@.type() != "object" && @.type() != "array")') n(y)
                        WHERE ${container('i.x')}) q(e))`;
}

/**
 * Counts the GIN entries of a page sample of `column` (at most {@link MAX_ROWS} rows), where the
 * width-based count (a jsonb value: one entry per 10 bytes) is far off: set AH's attributes held
 * six or eight entries in 227 bytes, read as 23, when a 400-byte description was one of them.
 * Only a plain `jsonb` column under `jsonb_ops` or `jsonb_path_ops`, without a predicate: nothing
 * the user wrote is evaluated. Null when it does not apply or the read failed.
 */
export async function sampleJsonbEntries(
  client: FeatureClient,
  table: { name: string; oid: number; heap: number },
  column: string,
  opclass: string | null,
  hasPredicate: boolean,
  sampleBytes: number,
): Promise<JsonbEntrySample | null> {
  if (hasPredicate || (opclass !== null && opclass !== 'jsonb_ops' && opclass !== 'jsonb_path_ops')) return null;
  if ((await columnType(client, table.oid, column))?.type !== JSONB_OID) return null;
  const sample = samplePages(table.name, table.heap, sampleBytes * ENTRY_SAMPLE_FRACTION, 'dbops_t');
  const read = await optionalQuery(
    client,
    `SELECT count(*)::float8 AS rows, coalesce(sum(${entriesOf('s.v', opclass === 'jsonb_path_ops')}), 0)::float8 AS entries
       FROM (SELECT dbops_t.${quoteIdent(column)} AS v FROM ${sample.from} LIMIT ${MAX_ROWS}) s`,
  );
  const r = read?.[0] as { rows?: number; entries?: number } | undefined;
  if (!r || !r.rows) return null;
  return { percent: sample.percent, rows: Number(r.rows), entries: Number(r.entries ?? 0) };
}

/** The sample in words, for the finding's basis. */
export const jsonbEntryText = (s: JsonbEntrySample): string =>
  `about ${(s.entries / s.rows).toFixed(1)} GIN entries a row (counted on ${s.rows.toLocaleString('en-US')} rows of a sample of ${percentText(s.percent)}% of the table)`;
