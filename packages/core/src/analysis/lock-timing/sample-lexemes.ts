import { quoteIdent } from '../../pg/quote';
import { columnType, type FeatureClient, optionalQuery } from './live-table';
import { samplePages } from './sample-pages';
import type { BuiltIndex } from './timing-class';

/**
 * The lexemes of a page sample of a `tsvector` column, as a GIN build takes them: entries (one per
 * distinct lexeme of a row), distinct lexemes, and lexemes seen once (for the distinct estimate).
 */
export interface LexemeSample {
  percent: number;
  rows: number;
  entries: number;
  distinct: number;
  once: number;
  /** Entries of lexemes no more frequent in the sample than its {@link HOT_LEXEMES}th (0 when it holds fewer). */
  cold: number;
}

/** A GIN build on a `tsvector` column, as read from the sample: entries a row and distinct lexemes in the whole table. */
export interface LexemeShape {
  entriesPerRow: number;
  distinct: number;
  /** Entries a row of lexemes outside the most frequent {@link HOT_LEXEMES}. */
  coldPerRow: number;
}

/**
 * The build gathers entries in a tree of the distinct lexemes: an entry of one of the most
 * frequent few thousand finds its path in the CPU's cache, one of a rarer lexeme mostly does not.
 * Twenty words a row drawn by a power law from 50,000 built at 0.6-0.74 us an entry where sixty
 * of 5,000 spread evenly built at 0.25 (PostgreSQL 15, bench/lock-timing.ts --calibrate-gin-text).
 */
export const HOT_LEXEMES = 8192;

/** `tsvector`'s OID, fixed in PostgreSQL's catalog (`pg_type.dat`). */
const TSVECTOR_OID = 3614;

/** A share of the count sample: the lexemes of 4 MB take a few ms to group; of 32 MB, most of a second. */
const LEXEME_SAMPLE_FRACTION = 1 / 8;

/**
 * Groups the lexemes of a page sample of the built column. Only a plain `tsvector` column under
 * the default operator class and without a predicate: nothing the user wrote is evaluated.
 */
export async function sampleLexemes(
  client: FeatureClient,
  table: { name: string; oid: number; heap: number },
  index: BuiltIndex,
  hasPredicate: boolean,
  sampleBytes: number,
): Promise<LexemeSample | null> {
  const [param] = index.params;
  if (index.method !== 'gin' || index.params.length !== 1 || !param?.column || hasPredicate) return null;
  if (param.opclass && param.opclass !== 'tsvector_ops') return null;
  if ((await columnType(client, table.oid, param.column))?.type !== TSVECTOR_OID) return null;
  const sample = samplePages(table.name, table.heap, sampleBytes * LEXEME_SAMPLE_FRACTION, 'dbops_t');
  // A lexeme is cold when it is no more frequent in the sample than the one ranked HOT_LEXEMES:
  // ties count as cold, so a sample of a few thousand lexemes seen once each (a number of its
  // own in every row) does not rank half of them among the most frequent.
  const read = await optionalQuery(
    client,
    `WITH s AS MATERIALIZED (SELECT dbops_t.${quoteIdent(param.column)} AS v FROM ${sample.from}),
          g AS (SELECT u.lexeme, count(*) AS n, row_number() OVER (ORDER BY count(*) DESC) AS rank FROM s, unnest(s.v) AS u GROUP BY u.lexeme)
     SELECT (SELECT count(*) FROM s)::float8 AS rows, coalesce(sum(n), 0)::float8 AS entries, count(*)::float8 AS distinct,
            (count(*) FILTER (WHERE n = 1))::float8 AS once,
            coalesce(sum(n) FILTER (WHERE n <= (SELECT h.n FROM g AS h WHERE h.rank = ${HOT_LEXEMES})), 0)::float8 AS cold
       FROM g`,
  );
  const r = read?.[0] as { rows?: number; entries?: number; distinct?: number; once?: number; cold?: number } | undefined;
  if (!r || !r.rows) return null;
  return {
    percent: sample.percent,
    rows: Number(r.rows),
    entries: Number(r.entries ?? 0),
    distinct: Number(r.distinct ?? 0),
    once: Number(r.once ?? 0),
    cold: Number(r.cold ?? 0),
  };
}

/**
 * Distinct values of a whole population from a sample of it, by the GEE estimator (Charikar,
 * Chaudhuri, Motwani and Narasayya, 2000): the values seen once scaled by sqrt(total / n), the
 * others as seen. Its error is at most that factor either way, whatever the distribution: on five
 * vocabularies of our own (page samples of 1-26 %), 1.0-1.6x over and 2-3x under where every row
 * held a number of its own, where Duj1 (ANALYZE's estimator) came out 3-8x under and Chao1 5x over.
 * `n` values were sampled of `total`, `d` distinct among them, `once` seen a single time.
 */
export function estimatedDistinct(n: number, d: number, once: number, total: number): number {
  if (n <= 0 || d <= 0) return 0;
  if (total <= n) return d;
  const estimate = Math.sqrt(total / n) * once + (d - once);
  return Math.min(total, Math.max(d, estimate));
}

/** The build's shape for a table of `rows` rows (reltuples): its entries a row, and distinct lexemes estimated from the sample. */
export function lexemeShape(sample: LexemeSample, rows: number): LexemeShape {
  const entriesPerRow = sample.entries / sample.rows;
  return {
    entriesPerRow,
    distinct: estimatedDistinct(sample.entries, sample.distinct, sample.once, entriesPerRow * rows),
    coldPerRow: sample.cold / sample.rows,
  };
}
