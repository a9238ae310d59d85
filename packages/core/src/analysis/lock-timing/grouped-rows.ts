import { deparse } from '../../pg/deparse';
import { quoteIdent } from '../../pg/quote';
import { type AstNode, nodeBody, nodeKind, rangeVarName } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import { duj1Distinct, sampledKeyCounts } from './distinct-keys';
import type { FeatureClient } from './live-table';
import { percentText, samplePages } from './sample-pages';

/**
 * An INSERT whose rows are the groups of one table's rows (`INSERT ... SELECT ... FROM t [WHERE
 * ...] GROUP BY ...`): the table, its alias, the grouping keys as SQL (a position in the GROUP BY
 * stands for its select-list entry) and the WHERE. Null for anything else: a join, HAVING,
 * DISTINCT, LIMIT, WITH, set operations, GROUPING SETS, ROLLUP and CUBE.
 */
export interface GroupedInsert {
  table: string;
  alias: string | null;
  keys: string[];
  where: string | null;
}

export function groupedInsert(stmt: ParsedStatement): GroupedInsert | null {
  if (nodeKind(stmt.stmt) !== 'InsertStmt') return null;
  const select = (nodeBody(stmt.stmt).selectStmt as AstNode | undefined)?.SelectStmt as AstNode | undefined;
  const groups = select?.groupClause as AstNode[] | undefined;
  const from = select?.fromClause as AstNode[] | undefined;
  if (!select || !groups?.length || from?.length !== 1 || !from[0]!.RangeVar) return null;
  if ((select.op ?? 'SETOP_NONE') !== 'SETOP_NONE' || select.havingClause || select.distinctClause || select.limitCount || select.withClause) return null;
  const targets = (select.targetList ?? []) as AstNode[];
  const keys: string[] = [];
  for (const g of groups) {
    if (nodeKind(g) === 'GroupingSet') return null;
    const position = (nodeBody(g).ival as AstNode | undefined)?.ival;
    const expr = nodeKind(g) === 'A_Const' && typeof position === 'number' ? (targets[position - 1]?.ResTarget as AstNode | undefined)?.val : g;
    if (!expr) return null;
    keys.push(`(${deparse(expr as AstNode)})`);
  }
  const rv = from[0]!.RangeVar as AstNode;
  const alias = (rv.alias as AstNode | undefined)?.aliasname;
  return {
    table: rangeVarName(rv),
    alias: typeof alias === 'string' ? alias : null,
    keys,
    where: select.whereClause ? deparse(select.whereClause as AstNode) : null,
  };
}

/** Groups an aggregating INSERT adds, estimated from a page sample of its table. */
export interface SampledGroups {
  groups: number;
  /** Rows of the sample the WHERE kept, and the sample's share of the table, in percent. */
  sampleRows: number;
  percent: number;
  text: string;
}

/** Rows the sample must keep for its groups to say something: fewer leave the planner's figure. */
const MIN_GROUPED_ROWS = 500;

/**
 * The groups of `grouped` on the target: its table's rows (a page sample of at most
 * `sampleBytes`, `REPEATABLE`, the WHERE applied) grouped by its keys, the distinct groups of the
 * rows the WHERE keeps in the whole table estimated as ANALYZE estimates distinct values (Duj1).
 * The planner multiplies the keys' distinct counts and caps the product at a tenth of the rows:
 * set AA-A's 1M sessions grouped by day and device made 1M groups, planned 100,000. The keys and
 * WHERE must have passed the live-expression gate (they are evaluated). Null when it failed or
 * the sample kept too few rows.
 */
export async function sampledGroups(client: FeatureClient, grouped: GroupedInsert, heapBytes: number, sampleBytes: number): Promise<SampledGroups | null> {
  const sample = samplePages(grouped.table, heapBytes, sampleBytes, grouped.alias === null ? undefined : quoteIdent(grouped.alias));
  const counts = await sampledKeyCounts(client, `${sample.from}${grouped.where ? ` WHERE ${grouped.where}` : ''}`, grouped.keys);
  if (!counts || counts.rows < MIN_GROUPED_ROWS) return null;
  const kept = (counts.rows * 100) / sample.percent;
  const groups = duj1Distinct(counts.rows, counts.distinct, counts.once, kept);
  return {
    groups,
    sampleRows: counts.rows,
    percent: sample.percent,
    text: `groups of the INSERT's query estimated from a sample of ${percentText(sample.percent)}% of ${grouped.table}: about ${Math.round(groups).toLocaleString('en-US')} (${Math.round(counts.distinct).toLocaleString('en-US')} in ${Math.round(counts.rows).toLocaleString('en-US')} sampled rows)`,
  };
}
