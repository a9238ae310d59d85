import { deparse } from '../../pg/deparse';
import { quoteIdent, quoteQualified } from '../../pg/quote';
import { type AstNode, nodeBody, nodeKind, walk } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import { formatCount } from '../../util/format-count';
import { indexKeyCost, type KeyColumnInfo, type KeyCost } from './index-key-cost';
import { groupedInsert, sampledGroups } from './grouped-rows';
import { type InsertSource, insertSource } from './inserted-rows';
import { weakEstimateReason } from './predicate-estimate';
import { triggerWrites } from './trigger-work';
import { DML_WHERE_SELECTIVITY } from './snapshot-features';
import type { ScanSample } from './dml-scan';
import { type FeatureClient, type LiveTable, liveTable, optionalQuery, samplePercent, toastedBytesPerRow } from './live-table';
import { indexKeyOrder, rowsTogether } from './row-order';
import { btreeShapes, leafDensity, overflowShare } from './leaf-density';
import { type FilteredRead, filteredReadCost, plannedRows } from './planned-rows';
import { type ExpressionSample, rewriteExpressions, rewriteExpressionShape, sampleExpressions } from './sample-expressions';
import { type BrinSample, sampleBrin } from './sample-brin';
import { indexSortGateShape, indexSortShape, rebuildSortShapes, sampleGinArray, sampleSort, type SortSample } from './sample-sort';
import { simulatedHotShare } from './hot-simulation';
import { type JsonbEntrySample, jsonbEntryText, sampleJsonbEntries } from './sample-gin-entries';
import { HOT_LEXEMES, type LexemeSample, type LexemeShape, lexemeShape, sampleLexemes } from './sample-lexemes';
import { percentText, serverTiming } from './sample-pages';
import { type GeneratedColumn, type RecomputeSample, recomputedBy, sampleRecompute, storedGeneratedColumnsQuery } from './recomputed-columns';
import { EVERY_ROW, heapPageOf, type PageRoomScope, sampledPageRoom, spreadChanges } from './page-room';
import {
  assignedColumns,
  averageRowBytes,
  expressionNames,
  fillfactorReserve,
  fillfactorRoom,
  freeBytesPerPage,
  nonHotShare,
  type StoredColumn,
} from './hot-update';
import {
  type BuiltIndex,
  builtIndex,
  bufferFeatures,
  entryIndexWeight,
  dirtiedPages,
  GIN_ENTRY_SHARE,
  isRewrite,
  rebuiltAsGist,
  rebuiltBySort,
  NO_DML_FACTS,
  seqScanCost,
  type TimingClass,
  timingClass,
  type TimingFeatures,
} from './timing-class';

/**
 * Where a DELETE or UPDATE with a WHERE finds its rows, as SQL: the target (with its alias), the
 * tables an UPDATE's FROM or a DELETE's USING joins (plain tables only), and the WHERE. Null when
 * there is no WHERE, or the statement joins anything but a table (a subquery or a function).
 */
interface DmlScope {
  target: string;
  joined: string[];
  /** How the count names a target row (its alias, else the table). */
  ref: string;
  where: string;
  /** The statement's WITH, as SQL, or '' (the WHERE may read its queries). */
  with: string;
  /**
   * The WHERE or WITH reads other tables through a sub-query: the scope is planned (EXPLAIN runs
   * nothing), never counted.
   */
  planOnly: boolean;
}

/** Whether a node holds a sub-query. */
const holdsSubquery = (node: unknown): boolean => {
  let found = false;
  walk(node, (n) => {
    if (n.SubLink) found = true;
  });
  return found;
};

/** A scope's WITH as SQL, and whether its WHERE or WITH reads other tables (then it is only planned). */
const otherReads = (withClause: AstNode | undefined, where: AstNode): Pick<DmlScope, 'with' | 'planOnly'> => ({
  with: withClause ? `${deparse({ WithClause: withClause })} ` : '',
  planOnly: !!withClause || holdsSubquery(where),
});

function dmlScope(stmt: ParsedStatement, table: string): DmlScope | null {
  const b = nodeBody(stmt.stmt);
  const where = b.whereClause as AstNode | undefined;
  if (!where) return null;
  const items = ((b.fromClause ?? b.usingClause ?? []) as AstNode[]).filter(Boolean);
  if (items.some((i) => nodeKind(i) !== 'RangeVar')) return null;
  const alias = (b.relation as AstNode | undefined)?.alias?.aliasname as string | undefined;
  return {
    target: `${quoteQualified(table)}${alias ? ` AS ${quoteIdent(alias)}` : ''}`,
    joined: items.map((i) => deparse(i)),
    ref: alias ? quoteIdent(alias) : quoteQualified(table),
    where: deparse(where),
    ...otherReads(b.withClause as AstNode | undefined, where),
  };
}

/**
 * How a page sample reads an UPDATE's rows: its WHERE (every row without one) where it reads the
 * target alone and passed the live-expression gate, as the row count does; else no WHERE.
 */
function pageRoomScope(stmt: ParsedStatement, table: string, unplannable: boolean): PageRoomScope {
  const whole = { from: quoteQualified(table), ref: quoteQualified(table), where: null };
  if (unplannable) return whole;
  if (!nodeBody(stmt.stmt).whereClause) return { ...whole, where: EVERY_ROW };
  const scope = dmlScope(stmt, table);
  return scope && !scope.planOnly && scope.joined.length === 0 ? { from: scope.target, ref: scope.ref, where: scope.where } : whole;
}

/**
 * The SELECT whose plan estimates the rows a DML statement's WHERE selects (joined with its FROM
 * or USING tables), or null when there is none to ask. Planning folds STABLE and IMMUTABLE calls,
 * so it passes the live-expression gate first (`unplannable` in {@link liveFeatures}).
 */
function dmlWhereShape(stmt: ParsedStatement, table: string): string | null {
  const scope = dmlScope(stmt, table);
  return scope === null ? null : selectOf(scope);
}

/**
 * The SELECT a DELETE or UPDATE plans as: it reads each target row's ctid, so its plan is the
 * statement's own. `SELECT 1` may take an index-only scan of a vacuumed table (a nested loop
 * through an index where the DELETE hashes a sequential scan), and its cost and access path
 * then price a read the statement never makes.
 */
const selectOf = (scope: DmlScope): string => `${scope.with}SELECT ${scope.ref}.ctid FROM ${[scope.target, ...scope.joined].join(', ')} WHERE ${scope.where}`;

/**
 * The query an INSERT takes its rows from (`INSERT ... SELECT`, with the INSERT's WITH), as SQL,
 * or null for VALUES and DEFAULT VALUES. Planning it folds STABLE and IMMUTABLE calls, so it
 * passes the live-expression gate first, as a DML statement's WHERE does.
 */
function insertQueryShape(stmt: ParsedStatement): string | null {
  if (nodeKind(stmt.stmt) !== 'InsertStmt') return null;
  const b = nodeBody(stmt.stmt);
  const select = (b.selectStmt as AstNode | undefined)?.SelectStmt as AstNode | undefined;
  if (!select || select.valuesLists?.length) return null;
  return deparse({ SelectStmt: b.withClause && !select.withClause ? { ...select, withClause: b.withClause } : select });
}

/** The SELECT whose plan tells the rows a partial index keeps (CREATE INDEX ... WHERE), or null. */
function partialIndexShape(stmt: ParsedStatement, table: string): string | null {
  if (nodeKind(stmt.stmt) !== 'IndexStmt') return null;
  const where = nodeBody(stmt.stmt).whereClause as AstNode | undefined;
  return where ? `SELECT 1 FROM ${quoteQualified(table)} WHERE ${deparse(where)}` : null;
}

/**
 * The query whose plan tells the rows a statement changes, adds or indexes (a DML statement's
 * WHERE, an INSERT's query, a partial index's predicate), or null.
 */
function dmlRowsShape(stmt: ParsedStatement, table: string | null): string | null {
  const kind = nodeKind(stmt.stmt);
  if (kind === 'InsertStmt') return insertQueryShape(stmt);
  if (kind === 'IndexStmt') return table ? partialIndexShape(stmt, table) : null;
  return table && (kind === 'UpdateStmt' || kind === 'DeleteStmt') ? dmlWhereShape(stmt, table) : null;
}

/**
 * What the lock-timing estimate evaluates on the target for a statement, as one SELECT for the
 * live-expression gate: a btree build's keys, INCLUDE columns and predicate (its sample is sorted,
 * `sample-sort.ts`), else the rows shape of {@link dmlRowsShape}; null when nothing is evaluated.
 */
export function statementRowsShape(stmt: ParsedStatement, facts: StatementFacts): string | null {
  if (!facts.table) return null;
  if (facts.effect === 'index_build') {
    const sort = indexSortShape(stmt, builtIndex(stmt, facts));
    if (sort) return indexSortGateShape(sort, facts.table);
  }
  if (facts.effect === 'rewrite') {
    const computed = rewriteExpressions(facts);
    return computed.length ? rewriteExpressionShape(facts.table, computed) : null;
  }
  return dmlRowsShape(stmt, facts.table);
}

/** An INSERT's query when it reads one table through a WHERE: the scope a count of its rows reads, and the WHERE. */
function insertScope(stmt: ParsedStatement): { scope: DmlScope; where: AstNode } | null {
  const select = (nodeBody(stmt.stmt).selectStmt as AstNode | undefined)?.SelectStmt as AstNode | undefined;
  const from = select?.fromClause as AstNode[] | undefined;
  const rv = from?.length === 1 ? (from[0]!.RangeVar as AstNode | undefined) : undefined;
  const where = select?.whereClause as AstNode | undefined;
  if (!where || !rv) return null;
  const alias = rv.alias?.aliasname as string | undefined;
  const ref = alias ? quoteIdent(alias) : deparse({ RangeVar: { ...rv, alias: undefined } });
  return {
    scope: {
      target: deparse(from![0]!),
      joined: [],
      ref,
      where: deparse(where),
      ...otherReads((nodeBody(stmt.stmt).withClause ?? select!.withClause) as AstNode | undefined, where),
    },
    where,
  };
}

/** What the rows a DML statement changes rest on, and how much wider the range gets for it. */
export interface RowsBasis {
  text: string;
  /** Factor the hold-time range widens by: 1 for statistics or an exact count. */
  spread: number;
  /** The rows are the groups of an aggregate over another table's rows (`AGGREGATE_RATIO` in live-lock-timing.ts). */
  aggregate?: true;
}

/** The share of the count's sample bytes an aggregating INSERT's groups are sampled on. */
const GROUPS_SAMPLE_SHARE = 0.25;

/** A planner's estimate of a query that joins, groups or reads other tables: its own guesses multiply. */
const QUERY_ESTIMATE_SPREAD = 2;

/** The basis of rows whose WHERE reads other tables: planned, never counted (a count would run the sub-query). */
const PLANNED_ONLY: RowsBasis = {
  text: 'planner estimate (the WHERE reads other tables through a sub-query or WITH, so it is not counted)',
  spread: QUERY_ESTIMATE_SPREAD,
};

/** A page sample of many matching rows is close; a default guess is not. */
const SAMPLED_SPREAD = 1.25;
const GUESS_SPREAD = 3;

/** How much of the target a count may read. */
export interface CountLimits {
  /** Heap read whole by a count; above it, the count reads a sample. */
  exactCountBytes: number;
  /** Bytes of heap the sample reads. */
  sampleBytes: number;
}

export const DEFAULT_COUNT_LIMITS: CountLimits = { exactCountBytes: 64 * 2 ** 20, sampleBytes: 32 * 2 ** 20 };

/**
 * The range's widening for a sample that found `matched` rows. SYSTEM sampling takes whole
 * pages, so rows that sit together (a range of ids, one day's events) arrive in clumps and a
 * sample of few matches is off by much more than its count suggests: the widening grows as
 * 1/sqrt(matches) from 1.25x at a few hundred matches to 3x at none.
 */
export function sampleSpread(matched: number): number {
  return Math.min(GUESS_SPREAD, SAMPLED_SPREAD * (1 + 2 / Math.sqrt(Math.max(1, matched))));
}

/**
 * Rows a WHERE selects, counted on the target (whole, or a page sample of the target scaled up;
 * joined tables are read whole, and a target row that matches several joined rows counts once,
 * as the DML changes it once), and how.
 */
async function countedRows(
  client: FeatureClient,
  scope: DmlScope,
  t: LiveTable,
  byIndex: boolean,
  limits: CountLimits,
): Promise<{ rows: number; pages: number | null; basis: string; spread: number } | null> {
  if (scope.planOnly) return null;
  const sampled = !byIndex && t.heap > limits.exactCountBytes;
  const percent = sampled ? samplePercent(t.heap, limits.sampleBytes) : 100;
  // REPEATABLE: the same table gives the same figure on every analysis (and in tests).
  const from = [`${scope.target}${sampled ? ` TABLESAMPLE SYSTEM (${percent.toFixed(4)}) REPEATABLE (32)` : ''}`, ...scope.joined].join(', ');
  // The heap pages the rows lie on come with them where the count reads the heap anyway (a page
  // sample holds whole pages); a count through an index may read the index alone, and reading
  // the heap for the pages would load the very pages the statement is then timed on.
  const pages = byIndex ? 'NULL' : `count(DISTINCT ${heapPageOf(scope.ref)})::float8`;
  const sql = `SELECT count(${scope.joined.length ? `DISTINCT ${scope.ref}.ctid` : '*'})::float8 AS n, ${pages} AS p FROM ${from} WHERE ${scope.where}`;
  // A count that runs out of time leaves the planner's figure.
  const counted = await optionalQuery(client, sql);
  if (!counted) return null;
  const n = Number((counted[0] as { n?: number } | undefined)?.n ?? 0);
  const rows = sampled ? (n * 100) / percent : n;
  const pageCount = (counted[0] as { p?: number | null } | undefined)?.p ?? null;
  return {
    rows,
    pages: pageCount === null ? null : sampled ? (Number(pageCount) * 100) / percent : Number(pageCount),
    spread: sampled ? sampleSpread(n) : 1,
    basis: sampled
      ? `sampled ${percent < 1 ? percent.toFixed(2) : percent.toFixed(0)}% of the table: about ${formatCount(Math.round(rows))} rows (${formatCount(n)} in the sample)`
      : `counted on the target: ${formatCount(rows)} rows`,
  };
}

/**
 * A DML statement's WHERE evaluated over a page sample of its table (`limits.sampleBytes`, the
 * whole table when smaller), timed by the server (`serverTiming`: no round trip in it, which the
 * scaling to the whole table would multiply) for `dml-scan.ts`. Only the target read, no join or
 * sub-query; null where the query fails or runs out of time.
 */
async function timedScan(client: FeatureClient, stmt: ParsedStatement, t: LiveTable, table: string, limits: CountLimits): Promise<ScanSample | null> {
  const scope = dmlScope(stmt, table);
  if (!scope || scope.planOnly || scope.joined.length) return null;
  const percent = samplePercent(t.heap, limits.sampleBytes);
  const sampled = percent < 100 ? ` TABLESAMPLE SYSTEM (${percent.toFixed(4)}) REPEATABLE (32)` : '';
  const timed = await serverTiming(client, `${scope.with}SELECT count(*) FROM ${scope.target}${sampled} WHERE ${scope.where}`);
  return timed ? { ms: timed.ms, percent } : null;
}

/**
 * Columns of `t` with statistics, the column sets extended statistics (functional dependencies
 * or MCV lists) cover together, and whether the statistics are stale (a fifth of the rows
 * changed since the last ANALYZE, or never analyzed).
 */
async function statistics(client: FeatureClient, t: LiveTable): Promise<{ columns: Set<string>; extended: Set<string>[]; stale: string | null }> {
  const res = await client.query(
    `SELECT ARRAY(SELECT s.attname::text FROM pg_stats s WHERE s.schemaname = n.nspname AND s.tablename = c.relname) AS cols,
            ARRAY(SELECT (SELECT string_agg(a2.attname::text, ',') FROM pg_attribute a2 WHERE a2.attrelid = x.stxrelid AND a2.attnum = ANY (x.stxkeys))
                    FROM pg_statistic_ext x WHERE x.stxrelid = c.oid AND (x.stxkind @> '{f}' OR x.stxkind @> '{m}')) AS ext,
            coalesce(a.n_mod_since_analyze, 0)::float8 AS changed, (a.last_analyze IS NULL AND a.last_autoanalyze IS NULL) AS never
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_stat_all_tables a ON a.relid = c.oid
      WHERE c.oid = $1`,
    [t.oid],
  );
  const r = res.rows[0] as { cols: string[]; ext: Array<string | null>; changed: number; never: boolean } | undefined;
  const stale = !r
    ? 'the table has no statistics'
    : r.never && r.cols.length === 0
      ? 'the table was never analyzed'
      : r.changed > Math.max(1000, 0.2 * t.rows)
        ? `its statistics are stale (${formatCount(Math.round(r.changed))} rows changed since the last ANALYZE)`
        : null;
  return { columns: new Set(r?.cols ?? []), extended: (r?.ext ?? []).map((e) => new Set((e ?? '').split(','))), stale };
}

/** {@link statistics}, or, when they cannot be read, none: every estimate then counts as stale. */
const statisticsOrUnread = (client: FeatureClient, t: LiveTable): ReturnType<typeof statistics> =>
  statistics(client, t).catch(() => ({ columns: new Set<string>(), extended: [], stale: 'its statistics could not be read' }));

/**
 * Rows a DELETE or UPDATE changes: the planner's estimate where it rests on statistics,
 * otherwise counted on the target (the WHERE already passed the live-expression gate).
 */
async function touchedRows(
  client: FeatureClient,
  stmt: ParsedStatement,
  t: LiveTable,
  table: string,
  limits: CountLimits,
): Promise<{
  rows: number;
  /** Heap pages the rows lie on, counted with them (null: not counted). */
  pages: number | null;
  cost: number;
  byScan: boolean;
  index: string | null;
  blockOrder: boolean;
  filteredRead: FilteredRead | null;
  basis: RowsBasis;
} | null> {
  const scope = dmlScope(stmt, table);
  const planned = scope ? await plannedRows(client, selectOf(scope)) : null;
  if (!scope || !planned) return null;
  if (scope.planOnly) return { ...planned, pages: null, basis: PLANNED_ONLY };
  const where = nodeBody(stmt.stmt).whereClause as AstNode;
  const stats = await statisticsOrUnread(client, t);
  // A join's row estimate multiplies guesses of its own (join selectivity, matches per row).
  const weak = scope.joined.length
    ? `it joins ${scope.joined.length === 1 ? 'another table' : `${scope.joined.length} other tables`}`
    : (stats.stale ?? weakEstimateReason(where, stats.columns, stats.extended));
  if (!weak) return { ...planned, pages: null, basis: { text: 'planner estimate', spread: 1 } };
  const counted = await countedRows(client, scope, t, !planned.byScan, limits);
  return counted
    ? {
        ...planned,
        rows: counted.rows,
        pages: counted.pages,
        basis: { text: `${counted.basis} (the planner's estimate is a guess: ${weak})`, spread: counted.spread },
      }
    : { ...planned, pages: null, basis: { text: `planner estimate, a guess (${weak}; a count did not finish)`, spread: GUESS_SPREAD } };
}

/**
 * Rows an INSERT adds (`inserted-rows.ts`), with what the figure rests on: the statement's own
 * rows, a source table's statistics, or the target's plan of the INSERT's query (unless it did
 * not pass the live-expression gate: `plannable` false). A WHERE on one source table that the
 * planner can only guess at is counted there, as an UPDATE's is.
 */
async function insertedRows(
  client: FeatureClient,
  stmt: ParsedStatement,
  source: InsertSource,
  targetRows: number,
  plannable: boolean,
  limits: CountLimits,
): Promise<{ rows: number; basis: RowsBasis; cost: number }> {
  if (source.kind === 'values') return { rows: source.rows, basis: { text: `the statement's own ${formatCount(source.rows)} row(s)`, spread: 1 }, cost: 0 };
  const from = source.kind === 'table' ? await liveTable(client, source.table).catch(() => null) : null;
  // The query's own work: what the planner costs it, or a scan of its one source table.
  const sourceScan = from ? seqScanCost(from.heap, from.rows) : 0;
  if (source.kind === 'table' && from && !source.filtered)
    return {
      rows: from.rows,
      basis: { text: `the rows of ${source.table} (its statistics: about ${formatCount(Math.round(from.rows))})`, spread: 1 },
      cost: sourceScan,
    };
  const shape = plannable ? insertQueryShape(stmt) : null;
  const planned = shape ? await plannedRows(client, shape) : null;
  const rowsOf = (r: { rows: number; basis: RowsBasis }) => ({ ...r, cost: planned?.cost ?? sourceScan });
  // An aggregate's groups: the planner's figure for several keys is a product it caps; a sample
  // of the table grouped says (a quarter of the count's sample bytes: a hash of the keys).
  const grouped = plannable ? groupedInsert(stmt) : null;
  const groupedFrom = grouped ? await liveTable(client, grouped.table).catch(() => null) : null;
  const groups =
    grouped && groupedFrom ? await sampledGroups(client, grouped, groupedFrom.heap, limits.sampleBytes * GROUPS_SAMPLE_SHARE).catch(() => null) : null;
  // The query's cost is its table's scan: the planner's cost of it follows the planner's groups
  // (set AB-A: 1.2M groups planned, 6,718 sampled, priced x3.04 over), and the aggregate's own
  // work is `AGGREGATE_RATIO`'s.
  if (groups && groupedFrom)
    return {
      rows: groups.groups,
      basis: {
        text: `${groups.text}${planned ? `; the planner's estimate: ${formatCount(Math.round(planned.rows))}` : ''}`,
        spread: sampleSpread(groups.sampleRows),
        aggregate: true,
      },
      cost: seqScanCost(groupedFrom.heap, groupedFrom.rows),
    };
  if (planned) {
    const one = source.kind === 'table' && from ? insertScope(stmt) : null;
    if (!one || source.kind !== 'table' || !from)
      return rowsOf({ rows: planned.rows, basis: { text: "planner estimate of the INSERT's query", spread: QUERY_ESTIMATE_SPREAD } });
    if (one.scope.planOnly) return rowsOf({ rows: planned.rows, basis: PLANNED_ONLY });
    const stats = await statisticsOrUnread(client, from);
    const weak = stats.stale ?? weakEstimateReason(one.where, stats.columns, stats.extended);
    if (!weak) return rowsOf({ rows: planned.rows, basis: { text: 'planner estimate', spread: 1 } });
    const counted = await countedRows(client, one.scope, from, !planned.byScan, limits);
    return rowsOf(
      counted
        ? {
            rows: counted.rows,
            basis: { text: `the query's rows of ${source.table}, ${counted.basis} (the planner's estimate is a guess: ${weak})`, spread: counted.spread },
          }
        : { rows: planned.rows, basis: { text: `planner estimate, a guess (${weak}; a count did not finish)`, spread: GUESS_SPREAD } },
    );
  }
  // An unfiltered source table returned above: here its WHERE was not planned.
  if (source.kind === 'table' && from)
    return rowsOf({
      rows: from.rows * DML_WHERE_SELECTIVITY,
      basis: {
        text: `a default of ${DML_WHERE_SELECTIVITY * 100}% of the rows of ${source.table} (the query's WHERE was not evaluated on the target)`,
        spread: GUESS_SPREAD,
      },
    });
  // A query of several tables, or aggregating, that was not planned: a share of the largest table it
  // reads (set AI's aggregating INSERT, unplanned, was priced at a share of its empty target: 0 ms
  // for 4.9 s), else of the target's.
  const reads = source.kind === 'unknown' ? await largestTable(client, source.reads) : null;
  if (reads)
    return {
      rows: reads.table.rows * DML_WHERE_SELECTIVITY,
      basis: {
        text: `a guess of ${DML_WHERE_SELECTIVITY * 100}% of the rows of ${reads.name}, the largest table its query reads (the INSERT's query was not evaluated on the target)`,
        spread: GUESS_SPREAD,
      },
      cost: seqScanCost(reads.table.heap, reads.table.rows),
    };
  return rowsOf({
    rows: targetRows * DML_WHERE_SELECTIVITY,
    basis: {
      text: `a guess of ${DML_WHERE_SELECTIVITY * 100}% of the table's rows (the INSERT's query was not evaluated on the target)`,
      spread: GUESS_SPREAD,
    },
  });
}

/** Of the tables `names`, the one with the most rows as the target's catalog tells (null: none found). */
async function largestTable(client: FeatureClient, names: readonly string[]): Promise<{ name: string; table: LiveTable } | null> {
  let best: { name: string; table: LiveTable } | null = null;
  for (const name of new Set(names)) {
    const table = await liveTable(client, name).catch(() => null);
    if (table && (!best || table.rows > best.table.rows)) best = { name, table };
  }
  return best;
}

/** The DML facts of {@link NO_DML_FACTS}, to be filled in. */
type DmlFacts = { -readonly [K in keyof typeof NO_DML_FACTS]: number };
/** DML facts with the indexes a new row version enters (all of them unless a write path read otherwise). */
type WriteFacts = DmlFacts & { entryIndexes: number };

type DmlEvent = 'INSERT' | 'UPDATE' | 'DELETE';
const TRIGGER_EVENT_BIT: Record<DmlEvent, number> = { INSERT: 4, DELETE: 8, UPDATE: 16 };

/**
 * An index of the table as {@link INDEX_KINDS} reads it: access method, first operator class, key
 * columns in order (null for an expression), expressions and partial-index predicate (`pg_get_expr`).
 */
type IndexKind = { method: string; opclass: string | null; cols: Array<string | null>; expressions: string | null; predicate: string | null };

/** Every index of the table `c` as a JSON array of {@link IndexKind}: the one read of the per-index facts. */
const INDEX_KINDS = `(SELECT coalesce(json_agg(json_build_object(
          'method', am.amname, 'opclass', opc.opcname, 'expressions', pg_get_expr(i.indexprs, i.indrelid), 'predicate', pg_get_expr(i.indpred, i.indrelid),
          'cols', ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                          LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.ord))), '[]')
     FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam LEFT JOIN pg_opclass opc ON opc.oid = i.indclass[0]
    WHERE i.indrelid = c.oid)`;

/**
 * What an UPDATE or INSERT's rows meet on `t`: the fillfactor, the columns as stored (for the
 * free space on a page), the columns indexes read, and each foreign key's columns with the size
 * of its parent (and the parent's indexes).
 */
async function writeShape(
  client: FeatureClient,
  t: LiveTable,
): Promise<{ fillfactor: number; columns: StoredColumn[]; indexed: Set<string>; indexKinds: IndexKind[]; fks: Array<{ cols: string[]; bytes: number }> }> {
  const res = await client.query(
    `SELECT coalesce((SELECT o.option_value FROM pg_options_to_table(c.reloptions) o WHERE o.option_name = 'fillfactor'), '100')::int AS ff,
            (SELECT coalesce(json_agg(json_build_object('len', a.attlen, 'align', a.attalign, 'width', s.avg_width, 'nulls', coalesce(s.null_frac, 0)) ORDER BY a.attnum), '[]')
               FROM pg_attribute a LEFT JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = a.attname
              WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
            ARRAY(SELECT a.attname::text FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[]) WHERE i.indrelid = c.oid) AS keys,
            ${INDEX_KINDS} AS kinds,
            (SELECT coalesce(json_agg(json_build_object(
                      'cols', ARRAY(SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey)),
                      'bytes', pg_total_relation_size(con.confrelid))), '[]')
               FROM pg_constraint con WHERE con.conrelid = c.oid AND con.contype = 'f') AS fks
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = $1`,
    [t.oid],
  );
  type Row = {
    ff: number;
    columns: Array<{ len: number; align: string; width: number | null; nulls: number }>;
    keys: string[];
    kinds: IndexKind[];
    fks: Array<{ cols: string[]; bytes: number }>;
  };
  const r = res.rows[0] as Row | undefined;
  const indexed = new Set(r?.keys ?? []);
  // Names an index expression or a partial-index predicate reads count as indexed columns too.
  for (const k of r?.kinds ?? []) for (const e of [k.expressions, k.predicate]) if (e) for (const name of expressionNames(e)) indexed.add(name);
  return {
    fillfactor: Number(r?.ff ?? 100),
    columns: (r?.columns ?? []).map((c) => ({ len: c.len, align: c.align, avgWidth: c.width, nullFrac: c.nulls })),
    indexed,
    indexKinds: r?.kinds ?? [],
    fks: (r?.fks ?? []).map((f) => ({ cols: f.cols, bytes: Number(f.bytes) })),
  };
}

/**
 * The enabled user row triggers of table `oid` for `event` (`fires`: each runs once a changed
 * row) and the writes their bodies make per row (`writes`: the PL/pgSQL and SQL bodies read by
 * {@link triggerWrites}).
 */
async function rowTriggers(client: FeatureClient, oid: number, event: DmlEvent): Promise<{ fires: number; writes: number }> {
  const trg = await client.query(
    `SELECT count(*)::int AS n, coalesce(json_agg(p.prosrc) FILTER (WHERE l.lanname IN ('plpgsql', 'sql')), '[]') AS bodies
       FROM pg_trigger tg JOIN pg_proc p ON p.oid = tg.tgfoid JOIN pg_language l ON l.oid = p.prolang
      WHERE tg.tgrelid = $1 AND NOT tg.tgisinternal AND tg.tgenabled <> 'D' AND tg.tgtype & 1 = 1 AND tg.tgtype & $2 <> 0`,
    [oid, TRIGGER_EVENT_BIT[event]],
  );
  const fired = trg.rows[0] as { n?: number; bodies?: string[] } | undefined;
  return { fires: Number(fired?.n ?? 0), writes: (fired?.bodies ?? []).reduce((sum, body) => sum + triggerWrites(body), 0) };
}

/**
 * What else a DML statement changing `touched` rows sets off on the table `t`: its enabled user
 * row triggers for the event; for an UPDATE, whether its new row versions can be HOT and the
 * foreign keys whose columns it sets (each checked against its parent per row); for an INSERT,
 * every foreign key; for a DELETE each foreign key that references it (an index probe of the
 * child per row when the child has an index led by the key column, else a scan of the child;
 * ON DELETE CASCADE / SET NULL / SET DEFAULT change the child's share of rows too).
 */
async function dmlFacts(
  client: FeatureClient,
  t: LiveTable,
  stmt: ParsedStatement,
  event: DmlEvent,
  rows: { touched: number; byScan: boolean; clustered: boolean; blockOrder: boolean; pages?: number },
  /** The UPDATE's rows as a page sample read them (`sampledPageRoom`; null when it could not). */
  pageSample: PageSample | null,
): Promise<WriteFacts> {
  const touched = rows.touched;
  const fired = await rowTriggers(client, t.oid, event);
  const facts: WriteFacts = { ...NO_DML_FACTS, entryIndexes: t.idx, rowTriggers: fired.fires, triggerWrites: fired.writes };
  if (event !== 'DELETE') {
    const shape = await writeShape(client, t);
    const assigned = event === 'UPDATE' ? assignedColumns(stmt) : null;
    const checked = assigned ? shape.fks.filter((fk) => fk.cols.some((c) => assigned.has(c))) : shape.fks;
    facts.fkChecks = checked.length;
    facts.fkUncached = checked.reduce((sum, fk) => sum + bufferFeatures(fk.bytes, t.sharedBuffers).uncachedShare, 0);
    if (assigned) {
      const rekeyed = await updateReach(client, facts, t, pageSample?.scope ?? null, touched, assigned);
      if (facts.setNullRows > 0) facts.setNullEntries = rekeyed / facts.setNullRows;
    }
    // A GIN index takes every entry of the new version's value, not one.
    const gin = await ginEntries(client, t, shape.indexKinds);
    facts.entryIndexes =
      entryIndexes(
        shape.indexKinds.filter((k) => k.method !== 'gin'),
        assigned,
      ) +
      gin * GIN_ENTRY_SHARE;
    if (assigned) {
      const pages = Math.max(1, t.heap / 8192);
      const touchedPages = dirtiedPages({ heapBytes: t.heap, rows: t.rows, touchedRows: touched, foundByScan: rows.byScan, rowsClustered: rows.clustered });
      // Rows sized from their statistics give the free space a page really has (the fillfactor's
      // reserve and what vacuumed deletes left); without statistics, the fillfactor's reserve.
      const sized = averageRowBytes(shape.columns);
      const rowBytes = sized ?? ((t.heap / Math.max(1, t.rows)) * shape.fillfactor) / 100;
      const indexedColumnChanged = [...assigned].some((c) => shape.indexed.has(c));
      // Played out on sampled pages where they can be read; else from the averages.
      const played = indexedColumnChanged || t.idx === 0 || !pageSample ? null : await playedHotShare(client, t, pageSample, shape.fillfactor, touched, rows);
      facts.nonHotShare =
        played !== null
          ? 1 - played
          : nonHotShare({
              indexedColumnChanged,
              roomBytes: sized !== null ? freeBytesPerPage(t.rows, pages, sized) : fillfactorRoom(shape.fillfactor, rowBytes),
              rowBytes,
              changedPerPage: touched / Math.max(1, touchedPages),
            });
      // The new entries that find a full leaf, in btrees whose key the UPDATE keeps (overflowShare).
      const newEntries = touched * facts.nonHotShare;
      facts.fullEntryIndexes = (await btreeShapes(client, t.oid)).reduce((sum, s) => {
        const reads = new Set([...s.columns.filter((c): c is string => c !== null), ...(s.expressions ? expressionNames(s.expressions) : [])]);
        return [...assigned].some((c) => reads.has(c)) ? sum : sum + overflowShare(s, leafDensity(s), newEntries);
      }, 0);
    }
    return facts;
  }
  const entries = await deleteReach(
    client,
    facts,
    { oid: t.oid, rows: t.rows, sharedBuffers: t.sharedBuffers },
    pageSample?.scope ?? null,
    touched,
    0,
    new Set([t.oid]),
  );
  // Entries per child row, weighted by each child's rows.
  if (facts.setNullRows > 0) facts.setNullEntries = entries / facts.setNullRows;
  return facts;
}

/** Referencing tables a cascade is followed into: children, grandchildren, great-grandchildren. */
const CASCADE_DEPTH = 3;

/**
 * The foreign keys referencing table `oid`, as a DELETE (`on`: 'delete') or an UPDATE of the
 * referenced key ('update') meets them: the referential action for that event, the child, its key
 * columns and the parent's, and the child's smallest index led by the key column (none: a scan).
 */
async function referencingKeys(client: FeatureClient, oid: number, on: 'delete' | 'update'): Promise<ChildRef[]> {
  const res = await client.query(
    `SELECT CASE WHEN $2 THEN con.confupdtype ELSE con.confdeltype END AS action, greatest(ch.reltuples, 0)::float8 AS rows, con.conrelid::regclass::text AS child, con.conrelid::int8 AS child_oid,
            ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.o) AS cols,
            ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.o) AS pcols,
            -- The child's smallest index led by the key column: the one the action searches (none: a scan).
            ix.cols IS NOT NULL AS indexed, coalesce(ix.cols, '{}') AS order_cols,
            (ch.relpages::float8 + coalesce((SELECT sum(ic.relpages) FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid WHERE i.indrelid = con.conrelid), 0)) * 8192 AS bytes
       FROM pg_constraint con JOIN pg_class ch ON ch.oid = con.conrelid
       LEFT JOIN LATERAL (SELECT ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o)
                                         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n
                                        WHERE k.o <= i.indnkeyatts ORDER BY k.o) AS cols
                            FROM pg_index i WHERE i.indrelid = con.conrelid AND i.indkey[0] = con.conkey[1]
                           ORDER BY i.indnkeyatts, i.indexrelid LIMIT 1) ix ON true
      WHERE con.contype = 'f' AND con.confrelid = $1`,
    [oid, on === 'update'],
  );
  return res.rows as ChildRef[];
}

/**
 * What an UPDATE of `touched` rows of `t` (those `scope` selects, where it is evaluated on the
 * target) sets off where it sets a key other tables reference: ON UPDATE CASCADE, SET NULL and
 * SET DEFAULT give each referencing child row a new version with its key changed, priced as ON
 * DELETE SET NULL's are (the update class's price of a row and of its index entries), and fire
 * the child's UPDATE triggers; returns those index entries, summed, as {@link deleteReach} does.
 * Set AL's product renumbered through ON UPDATE CASCADE was priced as its own row alone: 0 ms for
 * 3-32 ms. The check NO ACTION and RESTRICT make (a probe of the child for the old key) is not
 * priced.
 */
async function updateReach(
  client: FeatureClient,
  facts: WriteFacts,
  t: LiveTable,
  scope: PageRoomScope | null,
  touched: number,
  assigned: ReadonlySet<string>,
): Promise<number> {
  let entries = 0;
  for (const r of await referencingKeys(client, t.oid, 'update')) {
    if ((r.action !== 'c' && r.action !== 'n' && r.action !== 'd') || !r.pcols.some((c) => assigned.has(c))) continue;
    const { children } = await reachedChildren(client, r, scope, 'dbops_u0', touched, t.rows);
    if (children > 0) entries += await rekeyedChildren(client, facts, r, children);
  }
  return entries;
}

/**
 * The rows of referencing child `ref` the referential action reaches from `parents` rows of a
 * parent of `parentRows` rows: counted through the child's index where `scope` (the parents'
 * WHERE) is evaluated on the target (with the pages the search visits), else the parents' share
 * of the child's rows (set AA-B: 100 of 10,000 devices held 8 % of the sessions, not 1 %).
 */
async function reachedChildren(
  client: FeatureClient,
  ref: ChildRef,
  scope: PageRoomScope | null,
  alias: string,
  parents: number,
  parentRows: number,
): Promise<{ children: number; counted: Awaited<ReturnType<typeof countedChildren>> }> {
  const counted = await countedChildren(client, ref, scope, alias);
  return { children: counted?.rows ?? (parents * ref.rows) / Math.max(1, parentRows), counted };
}

/** `children` rows of child `ref` firing its row triggers for `event`, and the rows their bodies write, added to `facts`. */
async function childFires(client: FeatureClient, facts: WriteFacts, ref: ChildRef, children: number, event: DmlEvent): Promise<void> {
  const fired = await rowTriggers(client, Number(ref.child_oid), event);
  facts.childTriggerFires += children * fired.fires;
  facts.childTriggerWrites += children * fired.writes;
}

/**
 * `children` rows of child `ref` that a referential action (SET NULL, SET DEFAULT, ON UPDATE
 * CASCADE) gives a new version with its key changed: counted into `facts` with the UPDATE
 * triggers they fire; returns the index entries their new versions take, as an UPDATE of that
 * key takes them.
 */
async function rekeyedChildren(client: FeatureClient, facts: WriteFacts, ref: ChildRef, children: number): Promise<number> {
  await childFires(client, facts, ref, children, 'UPDATE');
  const perRow = (await childEntries(client, ref.child, new Set(ref.cols)).catch(() => null)) ?? 1;
  facts.setNullRows += children;
  return perRow * children;
}

/**
 * What a DELETE of `deleted` rows of `table` (those `scope` selects, where it is evaluated on the
 * target) reaches through the foreign keys referencing it, added to `facts`: at the top, a lookup
 * per deleted row in each referencing child (by index, or a scan of the child); below, the rows
 * each ON DELETE CASCADE deletes (with the lookups their own deletion makes, and the cascades it
 * runs in turn, to {@link CASCADE_DEPTH} levels) and each SET NULL/DEFAULT updates. Set H's
 * customers cascaded into tickets, and those into comments nobody counted: x7 short. Returns the
 * index entries the SET NULL/DEFAULT children's new versions take, summed over them.
 */
async function deleteReach(
  client: FeatureClient,
  facts: WriteFacts,
  table: { oid: number; rows: number; sharedBuffers: number },
  scope: PageRoomScope | null,
  deleted: number,
  depth: number,
  seen: Set<number>,
): Promise<number> {
  let entries = 0;
  const refs = await referencingKeys(client, table.oid, 'delete');
  for (const r of refs) {
    // Each deleted row is looked up in each referencing child: the statement's own rows are the
    // delete class's referencing terms, a cascade's rows its lookups.
    if (depth === 0) {
      if (r.indexed) facts.indexedRefs += 1;
      else facts.unindexedRefRows += r.rows;
    } else if (r.indexed) facts.cascadeLookups += deleted;
    else facts.cascadeRefScanRows += deleted * r.rows;
    if (r.action !== 'c' && r.action !== 'n' && r.action !== 'd') continue;
    const alias = `dbops_c${depth}`;
    const { children, counted } = await reachedChildren(client, r, scope, alias, deleted, table.rows);
    if (children <= 0) continue;
    if (r.action === 'c') {
      // A cascaded row fires the child's DELETE triggers.
      await childFires(client, facts, r, children, 'DELETE');
      facts.cascadeRows += children;
      // Uncounted children are taken as lying apart, a heap page each.
      facts.cascadeVisits += counted?.visits ?? children;
      facts.cascadeUncachedPages += (counted?.pages ?? children) * bufferFeatures(Number(r.bytes), table.sharedBuffers).uncachedShare;
      const childOid = Number(r.child_oid);
      if (depth + 1 < CASCADE_DEPTH && !seen.has(childOid)) {
        const childScope = counted && scope?.where ? { from: `${r.child} ${alias}`, ref: alias, where: childrenOf(r, scope, alias) } : null;
        entries += await deleteReach(
          client,
          facts,
          { oid: childOid, rows: r.rows, sharedBuffers: table.sharedBuffers },
          childScope,
          children,
          depth + 1,
          new Set([...seen, childOid]),
        );
      }
    } else entries += await rekeyedChildren(client, facts, r, children);
  }
  return entries;
}

/** The WHERE selecting a referencing child's rows (as `alias`) whose key is among the rows `scope` selects. */
function childrenOf(ref: ChildRef, scope: PageRoomScope, alias: string): string {
  const childKey = `(${ref.cols.map((c) => `${alias}.${quoteIdent(c)}`).join(', ')})`;
  const parentKey = ref.pcols.map((c) => `${scope.ref}.${quoteIdent(c)}`).join(', ');
  return `${childKey} IN (SELECT ${parentKey} FROM ${scope.from} WHERE ${scope.where})`;
}

/**
 * A foreign key referencing the table, as the DELETE's features read it: `order_cols` are the key
 * columns of the child's index the ON DELETE action searches, `bytes` the child's heap and indexes.
 */
type ChildRef = {
  action: string;
  rows: number;
  child: string;
  child_oid: string;
  cols: string[];
  pcols: string[];
  indexed: boolean;
  order_cols: string[];
  bytes: number;
};

/**
 * Child rows a DELETE's ON DELETE action reaches, and the heap pages it reads for them: counted
 * through the child's index on its key (READ ONLY, under the caller's statement_timeout), for the
 * parent rows the DELETE's WHERE selects where it is evaluated on the target (`scope.where`). The
 * action takes a parent's children in the order of that index (its keys, then the heap position
 * of equal keys): `visits` counts the children whose page is not the one before's (a child beside
 * the one before costs a fraction of one elsewhere), `pages` the distinct pages. Null where the
 * WHERE is not evaluated on the target, where the child has no index on its key (the count would
 * read it whole), or where the count failed.
 */
async function countedChildren(
  client: FeatureClient,
  ref: ChildRef,
  scope: PageRoomScope | null,
  alias: string,
): Promise<{ rows: number; visits: number; pages: number } | null> {
  if (!scope?.where || scope.where === EVERY_ROW || !ref.indexed || !ref.cols.length || ref.cols.length !== ref.pcols.length) return null;
  const keys = ref.order_cols.map((c, i) => `${alias}.${quoteIdent(c)} AS dbops_k${i}, `).join('');
  const order = [...ref.order_cols.map((_c, i) => `dbops_k${i}`), 'dbops_t'].join(', ');
  const rows = await optionalQuery(
    client,
    `SELECT count(*)::float8 AS n, count(*) FILTER (WHERE dbops_prev IS DISTINCT FROM dbops_b)::float8 AS visits, count(DISTINCT dbops_b)::float8 AS pages
       FROM (SELECT dbops_b, lag(dbops_b) OVER (ORDER BY ${order}) AS dbops_prev
               FROM (SELECT ${keys}${alias}.ctid AS dbops_t, (${alias}.ctid::text::point)[0]::bigint AS dbops_b
                       FROM ${ref.child} ${alias} WHERE ${childrenOf(ref, scope, alias)}) dbops_s) dbops_v`,
  );
  const r = rows?.[0] as { n?: number; visits?: number; pages?: number } | undefined;
  return typeof r?.n === 'number' ? { rows: r.n, visits: Number(r.visits ?? r.n), pages: Number(r.pages ?? r.n) } : null;
}

/**
 * The share of an UPDATE's new versions that stay HOT, played out on a page sample of the target
 * (`hot-simulation.ts`): each page's free bytes and the rows the WHERE selects on it, or, where
 * the WHERE is not evaluated there, the rows the estimate counts laid on the pages. Null when the
 * sample cannot be read.
 */
async function playedHotShare(
  client: FeatureClient,
  t: LiveTable,
  sample: PageSample,
  fillfactor: number,
  touched: number,
  rows: { clustered: boolean; blockOrder: boolean; pages?: number },
): Promise<number | null> {
  const scope = sample.scope;
  if (sample.pages.length === 0) return null;
  // Rows counted on many more pages than they would fill packed lie spread out, whatever order the
  // scan takes them in: a join's rows scattered over the heap (set Z-B's UPDATE joined to paused
  // campaigns: 8 % of the rows on 80 % of the pages, laid packed as by-scan rows are, it left too
  // little room a page and read x2.4 over).
  const totalPages = Math.max(1, t.heap / 8192);
  const packedPages = touched / Math.max(1, t.rows / totalPages);
  const together = rows.clustered && !(rows.pages !== undefined && rows.pages > SPREAD_PAGES * packedPages);
  // The free space map knows a page's room once a VACUUM recorded it (it leaves pages all-visible,
  // and counts itself); before, it holds only what each page had left when an INSERT filled it.
  // A plain table is no partition tree of its own: it is read directly.
  const vacuumed = await optionalQuery(
    client,
    `SELECT EXISTS (SELECT 1 FROM pg_class c LEFT JOIN pg_stat_all_tables s ON s.relid = c.oid
                     WHERE (c.oid = ${t.oid}::oid OR c.oid IN (SELECT p.relid FROM pg_partition_tree(${t.oid}::oid) p))
                       AND (c.relallvisible > 0 OR coalesce(s.vacuum_count + s.autovacuum_count, 0) > 0)) AS vacuumed`,
  );
  const pages = scope.where === null ? spreadChanges(sample.pages, touched / Math.max(1, t.rows), together) : sample.pages;
  // The order the UPDATE reaches its rows in is its own plan's: `rows.blockOrder` comes from the
  // row estimate's plan, which reads the rows' ctid as the UPDATE does (`selectOf`).
  return simulatedHotShare({
    pages,
    reserve: fillfactorReserve(fillfactor),
    freeSpaceMap: (vacuumed?.[0] as { vacuumed?: boolean } | undefined)?.vacuumed !== false,
    blockOrder: rows.blockOrder || together,
  });
}

/** Counted rows on more than this many times the pages they would fill packed are taken as spread out. */
const SPREAD_PAGES = 2;

/** The page sample reads an eighth of the row count's sample bytes (4 MB by default): a few hundred pages show how room and changes fall. */
const PAGE_SAMPLE_FRACTION = 1 / 8;

type PageSample = NonNullable<Awaited<ReturnType<typeof sampledPageRoom>>> & { scope: PageRoomScope };

/**
 * An UPDATE's or DELETE's rows on a page sample of the target: read for an UPDATE's HOT share, and,
 * where its WHERE is evaluated there and nothing counted them yet, for the heap pages its rows lie
 * on (the sampled pages holding one, scaled up). A WHERE the planner trusts still says nothing of
 * where the rows lie: set S-A's `device_id BETWEEN 100 AND 2000` keeps 9 % of the rows, on 15 % of
 * the pages, where a key with a low correlation was taken to spread them over all.
 */
async function dmlPageSample(client: FeatureClient, t: LiveTable, scope: PageRoomScope, event: DmlEvent, sampleBytes: number): Promise<PageSample | null> {
  // A DELETE reads no room: only where it has a WHERE to place its rows by.
  if (event === 'INSERT' || (event === 'DELETE' && (scope.where === null || scope.where === EVERY_ROW))) return null;
  const sample = await sampledPageRoom(client, scope, t.heap, sampleBytes * PAGE_SAMPLE_FRACTION);
  return sample ? { ...sample, scope } : null;
}

/** Heap pages holding the rows a page sample found changed, scaled to the table; null where the WHERE was not evaluated or found none. */
function sampledTouchedPages(sample: PageSample | null, heapBytes: number): number | null {
  if (!sample || sample.scope.where === null || sample.pages.length === 0) return null;
  const holding = sample.pages.filter((p) => p.changed.length > 0).length;
  return holding === 0 ? null : (holding / sample.pages.length) * Math.max(1, heapBytes / 8192);
}

/** Index entries a new version of a `child` row takes when its `assigned` columns change: every index unless HOT, GIN ones per entry. */
async function childEntries(client: FeatureClient, child: string, assigned: Set<string>): Promise<number | null> {
  const c = await liveTable(client, child);
  if (!c) return null;
  const kinds = await indexKinds(client, c);
  // A key column with an index on it leaves no version HOT; an unindexed key may, but the share is not read for a child.
  const gin = await ginEntries(client, c, kinds);
  return (
    entryIndexes(
      kinds.filter((k) => k.method !== 'gin'),
      assigned,
    ) +
    gin * GIN_ENTRY_SHARE
  );
}

/** An index key whose cost rests on a default (an expression, a column never analyzed) widens the range this much. */
const KEY_GUESS_SPREAD = 1.5;

/**
 * The keys of an index a statement builds as the target's catalog describes them: type, the
 * collation that compares them (the COLLATE written, else the column's, else the database's:
 * bytewise C/POSIX, libc or ICU), `pg_stats` width, distinct share and heap-order correlation
 * of each; an expression key stays unknown (null type).
 */
async function liveIndexKey(
  client: FeatureClient,
  t: LiveTable,
  index: BuiltIndex,
  /** Where a GIN key on a jsonb column may have its entries counted on a page sample (`table` as the statement names it). */
  sample?: { table: string; sampleBytes: number; hasPredicate: boolean },
): Promise<{ cost: KeyCost; correlation: number | null; jsonbEntries: JsonbEntrySample | null }> {
  const columns: KeyColumnInfo[] = [];
  let jsonbEntries: JsonbEntrySample | null = null;
  let correlation: number | null = null;
  for (const [i, p] of index.params.entries()) {
    const row = p.column
      ? ((
          await client.query(
            `WITH k AS (
               SELECT a.attname, ty.typname::text AS typname, ty.typlen::int AS typlen, ty.typcategory::text AS category, coalesce(et.typlen, 0)::int AS elemlen,
                      CASE WHEN a.attcollation = 0 THEN 0::oid ELSE coalesce((SELECT co.oid FROM pg_collation co WHERE co.collname = $3 LIMIT 1), a.attcollation) END AS coll,
                      s.avg_width::float8 AS width, s.n_distinct::float8 AS nd, abs(s.correlation)::float8 AS corr
                 FROM pg_attribute a JOIN pg_type ty ON ty.oid = a.atttypid LEFT JOIN pg_type et ON et.oid = ty.typelem AND ty.typcategory = 'A'
                 JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
                 LEFT JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = a.attname
                WHERE a.attrelid = $1 AND a.attname = $2)
             SELECT k.*, (SELECT CASE
                       WHEN co.collprovider = 'i' OR (co.collprovider = 'd' AND coalesce(to_jsonb(d) ->> 'datlocprovider', 'c') = 'i') THEN 'icu'
                       WHEN co.collname IN ('C', 'POSIX') OR coalesce(to_jsonb(co) ->> 'collcollate', '') IN ('C', 'POSIX')
                            OR (co.collprovider = 'd' AND d.datcollate IN ('C', 'POSIX')) THEN 'c'
                       ELSE 'libc' END
                  FROM pg_collation co, pg_database d WHERE co.oid = k.coll AND d.datname = current_database()) AS provider
               FROM k`,
            [t.oid, p.column, p.collation],
          )
        ).rows[0] as
          | {
              typname: string;
              typlen: number;
              category: string;
              elemlen: number;
              width: number | null;
              nd: number | null;
              corr: number | null;
              provider: string | null;
            }
          | undefined)
      : undefined;
    if (i === 0 && typeof row?.corr === 'number') correlation = Math.min(1, row.corr);
    // A jsonb value's entries are its keys and scalars, which its width says little of (a long string is one).
    const counted =
      sample && index.method === 'gin' && p.column && row?.typname === 'jsonb'
        ? await sampleJsonbEntries(
            client,
            { name: sample.table, oid: t.oid, heap: t.heap },
            p.column,
            p.opclass,
            sample.hasPredicate,
            sample.sampleBytes,
          ).catch(() => null)
        : null;
    if (counted) jsonbEntries = counted;
    columns.push(
      row
        ? {
            typname: row.typname,
            typlen: row.typlen,
            category: row.category,
            collation: (row.provider as KeyColumnInfo['collation']) ?? null,
            avgWidth: row.width,
            elemLen: row.elemlen,
            distinctShare: row.nd === null ? null : row.nd < 0 ? -row.nd : Math.min(1, row.nd / Math.max(1, t.rows)),
            ...(counted ? { sampledGinEntries: counted.entries / counted.rows } : {}),
          }
        : { typname: null, typlen: -1, category: 'U', collation: null, avgWidth: null },
    );
  }
  return { cost: indexKeyCost({ method: index.method, opclass: index.params[0]?.opclass ?? null, columns }), correlation, jsonbEntries };
}

/**
 * GIN entries per row over the GIN indexes among `kinds`, each read as a CREATE INDEX of the same
 * keys would be (with `sample`, a jsonb key's entries counted on the target as a build's are).
 */
async function ginEntries(client: FeatureClient, t: LiveTable, kinds: readonly IndexKind[], sample?: { table: string; sampleBytes: number }): Promise<number> {
  let sum = 0;
  for (const k of kinds) {
    if (k.method !== 'gin') continue;
    const key = await liveIndexKey(
      client,
      t,
      { method: 'gin', concurrent: false, params: k.cols.map((column) => ({ column, collation: null, opclass: k.opclass })) },
      sample ? { ...sample, hasPredicate: k.predicate !== null } : undefined,
    );
    sum += key.cost.ginEntries;
  }
  return sum;
}

/** The indexes of `t` alone ({@link INDEX_KINDS}), where nothing else of {@link writeShape} is needed. */
async function indexKinds(client: FeatureClient, t: LiveTable): Promise<IndexKind[]> {
  const res = await client.query(`SELECT ${INDEX_KINDS} AS kinds FROM pg_class c WHERE c.oid = $1`, [t.oid]);
  return ((res.rows[0] as { kinds?: IndexKind[] } | undefined)?.kinds ?? []) as IndexKind[];
}

/**
 * What a rewrite of `t` (named `table`) rebuilds: the indexes it sorts again (btree and hash),
 * the GIN entries per row of its GIN indexes, and its GiST and SP-GiST indexes weighted by their
 * keys' cost as a GiST build reads them.
 */
async function rebuiltIndexes(
  client: FeatureClient,
  t: LiveTable,
  table: string,
  sampleBytes: number,
): Promise<{ sorted: number; ginEntries: number; gistCost: number }> {
  const kinds = await indexKinds(client, t);
  let gistCost = 0;
  for (const k of kinds.filter((x) => rebuiltAsGist(x.method))) {
    const params = k.cols.map((column) => ({ column, collation: null, opclass: k.opclass }));
    gistCost += (await liveIndexKey(client, t, { method: k.method === 'spgist' ? 'spgist' : 'gist', concurrent: false, params })).cost.cost;
  }
  return { sorted: kinds.filter((k) => rebuiltBySort(k.method)).length, ginEntries: await ginEntries(client, t, kinds, { table, sampleBytes }), gistCost };
}

/** A rewrite's btree rebuilds that a sample of their keys stands for, each sorted on the target (one that fails is left out). */
async function sampledRebuilds(client: FeatureClient, t: LiveTable, table: string, sampleBytes: number): Promise<SortSample[]> {
  const shapes = await rebuildSortShapes(client, t.oid).catch(() => []);
  const out: SortSample[] = [];
  for (const shape of shapes) {
    const sample = await sampleSort(client, table, t.heap, shape, sampleBytes).catch(() => null);
    if (sample) out.push(sample);
  }
  return out;
}

/** The columns an index a statement builds reads: its key columns and the names its expressions read. */
function indexReadColumns(stmt: ParsedStatement, index: BuiltIndex): string[] {
  const names = index.params.flatMap((p) => (p.column ? [p.column] : []));
  if (nodeKind(stmt.stmt) === 'IndexStmt')
    for (const p of (nodeBody(stmt.stmt).indexParams ?? []) as AstNode[]) {
      const expr = (p.IndexElem as AstNode | undefined)?.expr as AstNode | undefined;
      if (expr) names.push(...expressionNames(deparse(expr)));
    }
  return names;
}

/** A REFRESH's rows, as a weak basis: what its query computes per row (joins, aggregates, sorts) is not priced. */
const REFRESH_SPREAD = 2;

/**
 * Rows a materialized view's query reads: the tables and views its rewrite rule depends on
 * (`pg_depend`, catalog only: the view's query is neither planned nor run), their `reltuples`
 * summed, and their names.
 */
async function refreshReads(client: FeatureClient, t: LiveTable): Promise<{ rows: number; tables: string[] }> {
  const res = await client.query(
    `SELECT coalesce(sum(greatest(c.reltuples, 0)), 0)::float8 AS rows, coalesce(array_agg(c.oid::regclass::text ORDER BY c.relname), '{}') AS tables
       FROM pg_class c
      WHERE c.relkind IN ('r', 'm') AND c.oid <> $1
        AND c.oid IN (SELECT d.refobjid FROM pg_rewrite r JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
                       WHERE r.ev_class = $1 AND d.refclassid = 'pg_class'::regclass)`,
    [t.oid],
  );
  const r = res.rows[0] as { rows?: number; tables?: string[] } | undefined;
  return { rows: Number(r?.rows ?? 0), tables: r?.tables ?? [] };
}

/**
 * Whether every column a `SET NOT NULL` names is already known not null, so PostgreSQL skips the
 * scan: the column is NOT NULL already (the statement changes nothing), or a validated CHECK
 * constraint says `col IS NOT NULL` (PostgreSQL 12 on uses it as proof). Only for a statement of
 * SET NOT NULLs alone (others beside them may scan).
 */
async function notNullProven(client: FeatureClient, t: LiveTable, subcommands: readonly AstNode[]): Promise<boolean> {
  if (!subcommands.length || subcommands.some((c) => c.subtype !== 'AT_SetNotNull' || typeof c.name !== 'string')) return false;
  const columns = subcommands.map((c) => String(c.name));
  const res = await client.query(
    `SELECT count(*)::int AS proven FROM pg_attribute a
      WHERE a.attrelid = $1 AND a.attname = ANY ($2) AND NOT a.attisdropped
        AND (a.attnotnull OR EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conrelid = a.attrelid AND con.contype = 'c' AND con.convalidated
               AND pg_get_constraintdef(con.oid) = 'CHECK ((' || quote_ident(a.attname) || ' IS NOT NULL))'))`,
    [t.oid, columns],
  );
  return Number((res.rows[0] as { proven?: number } | undefined)?.proven ?? 0) === new Set(columns).size;
}

/** The table's indexes weighted by the entry a new row version takes in each ({@link entryIndexWeight}); `assigned`: an UPDATE's SET columns. */
function entryIndexes(kinds: IndexKind[], assigned: Set<string> | null): number {
  let sum = 0;
  for (const k of kinds) {
    const predicateAssigned = k.predicate !== null && assigned !== null && [...expressionNames(k.predicate)].some((n) => assigned.has(n));
    sum += entryIndexWeight({ method: k.method, partial: k.predicate !== null, predicateAssigned });
  }
  return sum;
}

/**
 * The stored generated columns an UPDATE computes again (those reading a column it sets), their
 * expressions computed on sampled rows when they call nothing but built-in objects (`builtin` in
 * recomputed-columns.ts: the gate for expressions the target's catalog holds, the statement
 * never wrote them).
 */
async function recomputeOnSample(
  client: FeatureClient,
  t: LiveTable,
  table: string,
  assigned: ReadonlySet<string>,
  sampleBytes: number,
): Promise<RecomputeSample | null> {
  const read = await optionalQuery(client, storedGeneratedColumnsQuery(t.oid));
  const columns = recomputedBy((read ?? []) as GeneratedColumn[], assigned);
  return columns.length ? sampleRecompute(client, table, t.heap, columns, sampleBytes).catch(() => null) : null;
}

/** What a GIN build on a tsvector was priced from, in the basis's words. */
const lexemeText = (sample: LexemeSample, shape: LexemeShape): string =>
  `about ${shape.entriesPerRow.toFixed(1)} lexemes a row (${Math.round((shape.coldPerRow / Math.max(shape.entriesPerRow, 1e-9)) * 100)}% of them rarer than the ${formatCount(HOT_LEXEMES)} most frequent), about ${formatCount(Math.round(shape.distinct))} distinct in the table (from ${formatCount(sample.entries)} in a sample of ${percentText(sample.percent)}% of it)`;

/** Class and features of a statement's lock hold, read from the target's catalog and planner. */
export async function liveFeatures(
  client: FeatureClient,
  stmt: ParsedStatement,
  facts: StatementFacts,
  /** The statement's WHERE did not pass the live-expression gate: not planned on the target. */
  unplannable = false,
  limits: CountLimits = DEFAULT_COUNT_LIMITS,
): Promise<{
  cls: TimingClass;
  features: TimingFeatures;
  rowsBasis: RowsBasis | null;
  keyBasis: RowsBasis | null;
  sortSample: SortSample | null;
  /** A rewrite's btree rebuilds sampled on the target (each counted in `features.rebuildIndexes`). */
  rebuildSamples: SortSample[];
  /** A rewrite's new values computed on a sample on the target. */
  expressionSample: ExpressionSample | null;
  /** An UPDATE's stored generated columns computed again, timed on a sample on the target. */
  recomputeSample: RecomputeSample | null;
  /** An UPDATE's or DELETE's WHERE evaluated over a page sample of the target when a scan finds its rows, timed. */
  scanSample: ScanSample | null;
  /** A GIN build on an array column: its sample's elements sorted on the target. */
  ginSample: SortSample | null;
  /** A BRIN build: its sample's read on the target. */
  brinSample: BrinSample | null;
} | null> {
  const t = facts.table ? await liveTable(client, facts.table) : null;
  if (!t) return null;
  const timed = timingClass(stmt, facts);
  if (!timed) return null;
  const cls = timed === 'scan_not_null' && (await notNullProven(client, t, facts.subcommands)) ? 'catalog' : timed;
  const index = facts.effect === 'index_build' ? builtIndex(stmt, facts) : null;
  const hasPredicate = nodeKind(stmt.stmt) === 'IndexStmt' && !!nodeBody(stmt.stmt).whereClause;
  const key = index ? await liveIndexKey(client, t, index, { table: facts.table!, sampleBytes: limits.sampleBytes, hasPredicate }) : null;
  // A partial index sorts only the rows its predicate keeps (the heap is still read whole).
  const partialShape = index && !unplannable ? partialIndexShape(stmt, facts.table!) : null;
  const partial = partialShape ? await plannedRows(client, partialShape) : null;
  const indexedRows = partial ? Math.min(t.rows, partial.rows) : undefined;
  // A btree build's own sort, sampled on the target (the shape passed the gate with the statement).
  const sortShape = (cls === 'index_btree' || cls === 'index_concurrent') && !unplannable ? indexSortShape(stmt, index) : null;
  const sortSample = sortShape
    ? await sampleSort(client, facts.table!, t.heap, sortShape, limits.sampleBytes, { distinct: true, keyOrder: key?.correlation ?? null }).catch(() => null)
    : null;
  // GIN on an array and BRIN: sampled from catalog names alone (no predicate, built-in types).
  const sampled = { name: facts.table!, oid: t.oid, heap: t.heap, rows: t.rows };
  const ginSample = cls === 'index_gin' && index ? await sampleGinArray(client, sampled, index, hasPredicate, limits.sampleBytes).catch(() => null) : null;
  const brinSample = cls === 'index_brin' && index ? await sampleBrin(client, sampled, index, hasPredicate, limits.sampleBytes).catch(() => null) : null;
  const lexemes = cls === 'index_gin' && index ? await sampleLexemes(client, sampled, index, hasPredicate, limits.sampleBytes).catch(() => null) : null;
  const lexeme = lexemes ? lexemeShape(lexemes, t.rows) : null;
  const parent = facts.fk_targets[0] ? await liveTable(client, facts.fk_targets[0]) : null;
  let touched = t.rows;
  let scanCost = seqScanCost(t.heap, t.rows);
  let byScan = true;
  let clustered = true;
  let blockOrder = true;
  let touchedPages: number | undefined;
  let rowsBasis: RowsBasis | null = null;
  const kind = nodeKind(stmt.stmt);
  if ((kind === 'UpdateStmt' || kind === 'DeleteStmt') && facts.has_where) {
    const planned = unplannable ? null : await touchedRows(client, stmt, t, facts.table, limits);
    touched = planned?.rows ?? t.rows * DML_WHERE_SELECTIVITY;
    rowsBasis = planned?.basis ?? {
      text: `a default of ${DML_WHERE_SELECTIVITY * 100}% of the rows (the WHERE was not evaluated on the target)`,
      spread: GUESS_SPREAD,
    };
    if (planned) {
      scanCost = planned.cost;
      // An index read through a filter costs the pages its rows lie on, not the planner's figure
      // (which takes a bitmap scan's rows as scattered whatever the key's order).
      if (planned.filteredRead) {
        const order = await indexKeyOrder(client, t, planned.filteredRead.index).catch(() => null);
        scanCost = filteredReadCost({
          heapBytes: t.heap,
          rows: t.rows,
          readRows: planned.filteredRead.rows,
          together: rowsTogether(order, t.rows),
          blockOrder: planned.blockOrder,
          touchedPages: planned.pages,
          touchedRows: planned.rows,
        });
      }
      if (planned.pages !== null) touchedPages = planned.pages;
      byScan = planned.byScan;
      blockOrder = planned.blockOrder;
      // An index on a key unordered in the heap (a hash, a uuid, a cyclic code) finds rows
      // anywhere; unknown order counts as ordered.
      if (planned.index) clustered = rowsTogether(await indexKeyOrder(client, t, planned.index).catch(() => null), t.rows);
    }
  }
  // A REFRESH re-runs the view's query: the rows it reads cost beside the rows it writes.
  const refresh = kind === 'RefreshMatViewStmt' ? await refreshReads(client, t).catch(() => null) : null;
  if (refresh)
    rowsBasis = {
      text: `the view's ${formatCount(Math.round(t.rows))} rows written, and the ${formatCount(Math.round(refresh.rows))} rows its query reads from ${refresh.tables.join(', ') || 'no table'} read once each; what the query computes per row (joins, aggregates) is not priced`,
      spread: REFRESH_SPREAD,
    };
  const inserted = insertSource(stmt);
  if (inserted) {
    const rows = await insertedRows(client, stmt, inserted, t.rows, !unplannable, limits);
    touched = rows.rows;
    rowsBasis = rows.basis;
    // An INSERT reads its query's sources, not the table it writes to.
    scanCost = rows.cost;
  }
  const event: DmlEvent | null = kind === 'UpdateStmt' ? 'UPDATE' : kind === 'DeleteStmt' ? 'DELETE' : inserted ? 'INSERT' : null;
  const pageSample = event ? await dmlPageSample(client, t, pageRoomScope(stmt, facts.table!, unplannable), event, limits.sampleBytes) : null;
  // Pages counted with the rows stand; else those the page sample found them on.
  touchedPages ??= sampledTouchedPages(pageSample, t.heap) ?? undefined;
  const dml = event
    ? await dmlFacts(client, t, stmt, event, { touched, byScan, clustered, blockOrder, pages: touchedPages }, pageSample)
    : { ...NO_DML_FACTS, entryIndexes: t.idx };
  const rebuilt = isRewrite(cls) ? await rebuiltIndexes(client, t, facts.table!, limits.sampleBytes) : { sorted: t.idx, ginEntries: 0, gistCost: 0 };
  const rebuildSamples = isRewrite(cls) ? await sampledRebuilds(client, t, facts.table!, limits.sampleBytes) : [];
  // The values a rewrite computes per row (the shape passed the gate with the statement).
  const expressionSample =
    isRewrite(cls) && !unplannable
      ? await sampleExpressions(client, facts.table!, t.heap, rewriteExpressions(facts), limits.sampleBytes).catch(() => null)
      : null;
  // Values stored out of line cost apart: an index key that reads them detoasts each, an UPDATE
  // that sets them writes new TOAST chunks for each changed row.
  const toastRead =
    index && (cls === 'index_btree' || cls === 'index_concurrent')
      ? (await toastedBytesPerRow(client, t, indexReadColumns(stmt, index), limits.sampleBytes)) * t.rows
      : 0;
  const touchedToast = event === 'UPDATE' ? (await toastedBytesPerRow(client, t, assignedColumns(stmt), limits.sampleBytes)) * touched : 0;
  const recomputeSample =
    event === 'UPDATE' && !unplannable ? await recomputeOnSample(client, t, facts.table!, assignedColumns(stmt), limits.sampleBytes) : null;
  const scanSample =
    (event === 'UPDATE' || event === 'DELETE') && byScan && !unplannable && facts.has_where ? await timedScan(client, stmt, t, facts.table!, limits) : null;
  return {
    cls,
    rowsBasis,
    sortSample,
    rebuildSamples,
    expressionSample,
    recomputeSample,
    scanSample,
    ginSample,
    brinSample,
    keyBasis: key
      ? {
          text: `${key.cost.label}${indexedRows !== undefined ? `; partial: about ${formatCount(Math.round(indexedRows))} of ${formatCount(Math.round(t.rows))} rows kept (planner estimate)` : ''}${lexemes && lexeme ? `; ${lexemeText(lexemes, lexeme)}` : ''}${key.jsonbEntries ? `; ${jsonbEntryText(key.jsonbEntries)}` : ''}`,
          spread: key.cost.weak ? KEY_GUESS_SPREAD : 1,
        }
      : null,
    features: {
      rows: t.rows,
      heapBytes: t.heap,
      indexes: t.idx,
      rebuildIndexes: rebuilt.sorted,
      rebuildGinEntries: rebuilt.ginEntries,
      ...(rebuilt.gistCost > 0 ? { rebuildGistCost: rebuilt.gistCost } : {}),
      toastBytes: t.toast,
      toastRead,
      touchedToastBytes: touchedToast,
      parentRows: parent?.rows ?? 0,
      ...(indexedRows !== undefined ? { indexedRows } : {}),
      readRows: refresh?.rows ?? 0,
      touchedRows: touched,
      ...(touchedPages !== undefined ? { touchedPages } : {}),
      ...bufferFeatures(t.heap, t.sharedBuffers, t.indexBytes),
      // A GiST build inserts down its tree in any order (a point's sorts): the heap order does not
      // help it (set AJ's daterange in heap order, priced as presorted, read x3.8 short).
      keyCorrelation: cls === 'index_gist' ? 0 : (key?.correlation ?? 0.5),
      keyCost: key?.cost.cost ?? 1,
      // Sampled lexemes replace the entries a tsvector's width suggests.
      ginEntries: lexeme ? 0 : (key?.cost.ginEntries ?? 0),
      ...(lexeme ? { lexemeLog: lexeme.entriesPerRow * Math.log2(Math.max(2, lexeme.distinct)), coldLexemes: lexeme.coldPerRow } : {}),
      scanCost,
      foundByScan: byScan,
      rowsClustered: clustered,
      ...dml,
    },
  };
}
