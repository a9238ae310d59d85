import { quoteIdent, quoteLiteral } from '../../pg/quote';
import { type FeatureClient, optionalQuery } from './live-table';
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
  /** Entries of lexemes past the sample's {@link HOT_LEXEMES} most frequent. */
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
  const typed = await optionalQuery(
    client,
    `SELECT a.atttypid = 'tsvector'::regtype AS ok FROM pg_attribute a WHERE a.attrelid = ${Math.trunc(table.oid)} AND a.attname = ${quoteLiteral(param.column)} AND NOT a.attisdropped`,
  );
  if ((typed?.[0] as { ok?: boolean } | undefined)?.ok !== true) return null;
  const sample = samplePages(table.name, table.heap, sampleBytes * LEXEME_SAMPLE_FRACTION, 'dbops_t');
  const read = await optionalQuery(
    client,
    `WITH s AS MATERIALIZED (SELECT dbops_t.${quoteIdent(param.column)} AS v FROM ${sample.from})
     SELECT (SELECT count(*) FROM s)::float8 AS rows, coalesce(sum(n), 0)::float8 AS entries, count(*)::float8 AS distinct,
            (count(*) FILTER (WHERE n = 1))::float8 AS once, coalesce(sum(n) FILTER (WHERE rank > ${HOT_LEXEMES}), 0)::float8 AS cold
       FROM (SELECT u.lexeme, count(*) AS n, row_number() OVER (ORDER BY count(*) DESC) AS rank FROM s, unnest(s.v) AS u GROUP BY u.lexeme) AS x`,
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
 * Distinct values of a whole population from a sample of it (Haas and Stokes' Duj1, the estimator
 * ANALYZE uses for `n_distinct`): `n` values sampled of `total`, `d` distinct among them, `once`
 * seen a single time. Clamped between what the sample saw and the population.
 */
export function estimatedDistinct(n: number, d: number, once: number, total: number): number {
  if (n <= 0 || d <= 0) return 0;
  if (total <= n) return d;
  const estimate = (n * d) / (n - once + (once * n) / total);
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
