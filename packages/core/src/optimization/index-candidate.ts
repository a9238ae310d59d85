import { quoteIdent } from '../pg/quote';
import type { CatalogIndex, CatalogTable } from './live-catalog';
import type { Predicate } from './predicate-analysis';
import type { DetectionMethod } from './types';

/** One key of a proposed index: a column or an expression, with an optional sort direction. */
export interface IndexKey {
  column: string;
  isExpression: boolean;
  descending?: boolean;
}

/** A proposed index before validation. */
export interface IndexCandidate {
  schema: string;
  table: string;
  keys: IndexKey[];
  /** Partial index predicate (unqualified SQL), or null. */
  predicate: string | null;
  /** Which rule proposed it, e.g. "seq-scan-filter". */
  rule: string;
  reason: string;
  benefits: string[];
  detection_method: DetectionMethod;
}

/** Orders keys the way a btree serves them best: equality, then range, then ORDER BY. */
export function orderKeys(eq: IndexKey[], range: IndexKey[], orderBy: IndexKey[]): IndexKey[] {
  const out: IndexKey[] = [];
  for (const k of [...eq, ...range, ...orderBy]) if (!out.some((o) => o.column === k.column)) out.push(k);
  return out;
}

/** Keys and partial predicate from a scan's predicates. */
export function keysFromPredicates(preds: Predicate[]): { eq: IndexKey[]; range: IndexKey[]; partial: string | null } {
  const eq = preds.filter((p) => p.kind === 'eq').map((p) => ({ column: p.column, isExpression: p.isExpression }));
  const range = preds.filter((p) => p.kind === 'range').map((p) => ({ column: p.column, isExpression: p.isExpression }));
  const partials = preds.filter((p) => p.kind === 'partial' && !eq.some((e) => e.column === p.column));
  return { eq, range, partial: partials.length ? partials.map((p) => p.sql).join(' AND ') : null };
}

const normalize = (s: string): string => s.toLowerCase().replace(/"|\s|\(|\)|::[a-z_ ]+/g, '');

/** True when an existing valid btree index already starts with the candidate's keys (same predicate). */
export function coveredByExisting(candidate: IndexCandidate, indexes: CatalogIndex[]): CatalogIndex | undefined {
  const want = candidate.keys.map((k) => normalize(k.column));
  return indexes.find((ix) => {
    if (ix.method !== 'btree') return false;
    if (ix.predicate && (!candidate.predicate || normalize(ix.predicate) !== normalize(candidate.predicate))) return false;
    const have = ix.columns.map(normalize);
    return want.every((w, i) => have[i] === w);
  });
}

/** Leading column of some index of `table` is `column`. */
export const hasLeadingIndex = (table: CatalogTable, columns: string[]): boolean =>
  table.indexes.some((ix) => columns.every((c, i) => normalize(ix.columns[i] ?? '') === normalize(c)));

const keySql = (k: IndexKey): string => `${k.isExpression ? `(${k.column})` : quoteIdent(k.column)}${k.descending ? ' DESC' : ''}`;

/** A readable, unique-enough index name within PostgreSQL's 63-byte limit. */
export function indexName(c: IndexCandidate): string {
  const parts = c.keys.map((k) => (k.isExpression ? k.column.replace(/[^a-z0-9]+/gi, '_') : k.column));
  const base = `idx_${c.table}_${parts.join('_')}${c.predicate ? '_partial' : ''}`.toLowerCase().replace(/_+/g, '_').replace(/_$/, '');
  return base.length <= 63 ? base : base.slice(0, 63).replace(/_$/, '');
}

/** `CREATE INDEX` text; `concurrently` for the recommendation, plain for HypoPG. */
export function createIndexSql(c: IndexCandidate, concurrently: boolean): string {
  const where = c.predicate ? ` WHERE ${c.predicate}` : '';
  return `CREATE INDEX${concurrently ? ' CONCURRENTLY' : ''} ${quoteIdent(indexName(c))} ON ${quoteIdent(c.schema)}.${quoteIdent(c.table)} USING btree (${c.keys.map(keySql).join(', ')})${where}`;
}

/** Identity of a candidate for de-duplication. */
export const candidateKey = (c: IndexCandidate): string =>
  `${c.schema}.${c.table}(${c.keys.map((k) => `${k.column}${k.descending ? ' desc' : ''}`).join(',')})${c.predicate ?? ''}`;
