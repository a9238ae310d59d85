import { quoteIdent, quoteName } from '../../pg/quote';

/** Bounds of one sampling query (see {@link columnValuesQuery}). */
export interface ColumnValuesBounds {
  /** Rows read per column at most, whatever the table's size. */
  rowsRead: number;
  /** Distinct values kept per column; one more is fetched to tell a column that has more. */
  maxValues: number;
  /** Longest value kept, in characters; longer values are free text, not labels. */
  maxLength: number;
}

/**
 * Distinct values of some text columns of one table, one array per column (named "0", "1", ...
 * in the order given). Each column reads at most `rowsRead` rows, so a large table costs no more
 * than a small one, and fetches at most `maxValues + 1` distinct values of at most `maxLength`
 * characters: a column that answers more than `maxValues` is not low-cardinality and is dropped
 * by the caller.
 */
export const columnValuesQuery = (schema: string, table: string, columns: readonly string[], bounds: ColumnValuesBounds): string =>
  `SELECT ${columns
    .map(
      (c, i) =>
        `ARRAY(SELECT DISTINCT s.v FROM (SELECT ${quoteIdent(c)}::text AS v FROM ${quoteName(schema, table)} LIMIT ${bounds.rowsRead}) s
           WHERE s.v IS NOT NULL AND s.v <> '' AND length(s.v) <= ${bounds.maxLength} LIMIT ${bounds.maxValues + 1}) AS "${i}"`,
    )
    .join(',\n  ')}`;
