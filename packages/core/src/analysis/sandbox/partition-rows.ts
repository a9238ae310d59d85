import type { ColumnInfo, TableInfo } from '../../introspection/schema-snapshot';
import { qualifiedName } from '../../introspection/schema-snapshot';
import { quoteIdent, quoteLiteral, quoteQualified } from '../../pg/quote';
import { type BoundDatum, type PartitionBound, parsePartitionBound, parsePartitionKey } from './partition-bounds';
import { SqlExpr } from './sql-expr';

/**
 * Synthetic rows of partitioned tables go into the leaf partitions themselves, each row with
 * partition-key values inside the leaf's bound (and its ancestors' bounds, for sub-partitions),
 * so every non-empty partition of the target has rows in the clone, as a migration touching one
 * partition will find there.
 */

/** The partitioned tables above `t`, nearest first. */
export function ancestorsOf(t: TableInfo, byName: ReadonlyMap<string, TableInfo>): TableInfo[] {
  const out: TableInfo[] = [];
  let cur: TableInfo | undefined = t;
  while (cur?.partition_of && out.length < 32) {
    cur = byName.get(cur.partition_of);
    if (cur) out.push(cur);
  }
  return out;
}

/**
 * A partition as synthetic rows must see it: foreign keys, checks and the primary key declared on
 * its ancestors apply to it too (introspection lists them once, on the table that declares them).
 */
export function effectiveTable(t: TableInfo, byName: ReadonlyMap<string, TableInfo>): TableInfo {
  const up = ancestorsOf(t, byName);
  if (!up.length) return t;
  const seen = new Set(t.constraints.map((c) => c.name));
  const constraints = [...t.constraints];
  const fkKey = (f: TableInfo['foreign_keys'][number]): string => `${f.columns.join()}>${f.referenced_schema}.${f.referenced_table}`;
  const fkSeen = new Set(t.foreign_keys.map(fkKey));
  const foreign_keys = [...t.foreign_keys];
  for (const a of up) {
    for (const c of a.constraints) {
      if ((c.type !== 'check' && c.type !== 'unique') || seen.has(c.name)) continue;
      seen.add(c.name);
      constraints.push(c);
    }
    for (const f of a.foreign_keys) {
      if (fkSeen.has(fkKey(f))) continue;
      fkSeen.add(fkKey(f));
      foreign_keys.push(f);
    }
  }
  return { ...t, constraints, foreign_keys, primary_key: t.primary_key ?? up.find((a) => a.primary_key)?.primary_key ?? null };
}

const NUMERIC = /^(smallint|integer|bigint|numeric|decimal|real|double precision)\b/;
const INTEGER = /^(smallint|integer|bigint)\b/;
const TEXTUAL = /^(text|character varying|character|varchar|char)\b/;
const TIMELY = /^(date|timestamp)/;

const isNumber = (d: BoundDatum | undefined): d is { text: string } => !!d && 'text' in d && /^[-+]?\d+(\.\d+)?$/.test(d.text);
const lit = (d: BoundDatum): string | null => ('text' in d ? d.text : null);

/** Value `k` (0-based) at or after the range's lower bound and below its upper bound, for one column. */
function inRange(col: ColumnInfo, from: BoundDatum, to: BoundDatum, k: number): unknown {
  const type = col.data_type;
  if ('text' in from) {
    if (isNumber(from) && (isNumber(to) || 'max' in to) && NUMERIC.test(type)) {
      const step = INTEGER.test(type) ? k : k / 4;
      const v = Number(from.text) + step;
      return !isNumber(to) || v < Number(to.text) ? String(v) : from.text;
    }
    if (TIMELY.test(type) && 'text' in to) {
      const step = type.startsWith('date') ? `${k} days` : `${k} minutes`;
      const lo = `${quoteLiteral(from.text)}::${type}`;
      const next = `(${lo} + interval ${quoteLiteral(step)})::${type}`;
      return new SqlExpr(`(CASE WHEN ${next} < ${quoteLiteral(to.text)}::${type} THEN ${next} ELSE ${lo} END)`);
    }
    return from.text;
  }
  // From MINVALUE: below the upper bound, for numbers.
  if ('min' in from && isNumber(to) && NUMERIC.test(type)) return String(Number(to.text) - 1 - k);
  return undefined;
}

/** A candidate value of `col` from the integer `g` (SQL text), for searching a hash partition. */
function hashCandidate(col: ColumnInfo): string | undefined {
  if (NUMERIC.test(col.data_type)) return 'g';
  if (TEXTUAL.test(col.data_type)) return `'h' || g`;
  if (col.data_type === 'uuid') return 'md5(g::text)::uuid';
  return undefined;
}

/**
 * Key values for one partition level: `bound` of the partition under `parent`, whose key is on
 * `columns`. `siblings` are the other partitions' bounds (a default partition takes what none of
 * them does). Undefined when no value can be aimed at the bound.
 */
function levelValues(
  parent: TableInfo,
  columns: readonly ColumnInfo[],
  bound: PartitionBound,
  siblings: readonly PartitionBound[],
  k: number,
  keyColumn: (c: string) => boolean,
  foreignKeyOf: (c: string) => { table: string; column: string } | undefined,
): Map<string, unknown> | undefined {
  const out = new Map<string, unknown>();
  if (bound.kind === 'list') {
    const d = bound.values[k % bound.values.length]!;
    out.set(columns[0]!.name, lit(d));
    return out;
  }
  if (bound.kind === 'range') {
    // The lower bound tuple itself is in range; rows differ in the last column, which the upper
    // bound only limits when every column before it equals the upper bound's (tuples compare in order).
    const last = columns.length - 1;
    const samePrefix = bound.from.slice(0, last).every((d, i) => 'text' in d && lit(bound.to[i]!) === d.text);
    for (let i = 0; i <= last; i++) {
      const upper = i < last || samePrefix ? bound.to[i]! : { max: true as const };
      const v = inRange(columns[i]!, bound.from[i]!, upper, i === last ? k : 0);
      if (v === undefined) return undefined;
      out.set(columns[i]!.name, v);
    }
    return out;
  }
  if (bound.kind === 'hash') {
    // A key column that is also a foreign key takes a parent's value that hashes here.
    const fk = columns.length === 1 ? foreignKeyOf(columns[0]!.name) : undefined;
    if (fk) {
      const ref = quoteIdent(fk.column);
      const hashes = `pg_catalog.satisfies_hash_partition(${quoteLiteral(quoteQualified(qualifiedName(parent)))}::regclass, ${bound.modulus}, ${bound.remainder}, ${ref})`;
      out.set(columns[0]!.name, new SqlExpr(`(SELECT ${ref} FROM ${quoteQualified(fk.table)} WHERE ${hashes} ORDER BY ${ref} LIMIT 1)`));
      return out;
    }
    const cands = columns.map(hashCandidate);
    if (cands.some((c) => c === undefined)) return undefined;
    const args = cands.map((c, i) => `(${c})::${columns[i]!.data_type}`).join(', ');
    const pick = `FROM generate_series(1, 100000) g WHERE pg_catalog.satisfies_hash_partition(${quoteLiteral(quoteQualified(qualifiedName(parent)))}::regclass, ${bound.modulus}, ${bound.remainder}, ${args}) ORDER BY g OFFSET ${k} LIMIT 1`;
    columns.forEach((c, i) => out.set(c.name, new SqlExpr(`(SELECT (${cands[i]})::${c.data_type} ${pick})`)));
    return out;
  }
  // DEFAULT: a value no sibling takes. NULL goes there for a range key, and for a list that lists no NULL.
  const col = columns[0]!;
  if (columns.length !== 1) return undefined;
  const ranges = siblings.filter((s) => s.kind === 'range');
  const lists = siblings.flatMap((s) => (s.kind === 'list' ? s.values : []));
  if (col.nullable && !keyColumn(col.name) && (ranges.length || !lists.some((d) => 'null' in d))) {
    out.set(col.name, null);
    return out;
  }
  if (ranges.length) {
    const uppers = ranges.map((r) => r.to[0]!);
    if (uppers.every((u) => 'text' in u)) {
      // The highest upper bound: upper bounds are exclusive, and no range starts above it.
      const values = uppers.map((u) => `(${quoteLiteral(lit(u)!)}::${col.data_type})`).join(', ');
      const top = `(SELECT max(v) FROM (VALUES ${values}) s(v))`;
      out.set(col.name, new SqlExpr(NUMERIC.test(col.data_type) ? `(${top} + ${k})` : top));
      return out;
    }
    const lowers = ranges.map((r) => r.from[0]!);
    if (NUMERIC.test(col.data_type) && lowers.every(isNumber)) {
      out.set(col.name, String(Math.min(...lowers.map((l) => Number(l.text))) - 1 - k));
      return out;
    }
    return undefined;
  }
  const taken = new Set(lists.map(lit));
  if (NUMERIC.test(col.data_type)) {
    const nums = lists.filter(isNumber).map((d) => Number(d.text));
    out.set(col.name, String((nums.length ? Math.max(...nums) : 0) + 1 + k));
    return out;
  }
  if (TEXTUAL.test(col.data_type)) {
    let v = `other-${k + 1}`;
    while (taken.has(v)) v = `${v}x`;
    out.set(col.name, v);
    return out;
  }
  return undefined;
}

/**
 * Partition-key values of synthetic row `k` (0-based) of the leaf partition `t`: each level's
 * bound from the leaf up; a column a deeper level already set keeps its value. Empty for a table
 * that is no partition; undefined when some level's bound cannot be aimed at (the row is then
 * tried without, and a failure named in `synthetic_rows`).
 */
export function partitionKeyValues(
  t: TableInfo,
  byName: ReadonlyMap<string, TableInfo>,
  partitionsOf: ReadonlyMap<string, TableInfo[]>,
  k: number,
  keyColumn: (c: string) => boolean,
): Map<string, unknown> | undefined {
  const out = new Map<string, unknown>();
  const foreignKeyOf = (c: string): { table: string; column: string } | undefined => {
    for (const f of t.foreign_keys) {
      const at = f.columns.indexOf(c);
      if (at >= 0 && f.columns.length === 1) return { table: `${f.referenced_schema}.${f.referenced_table}`, column: f.referenced_columns[at]! };
    }
    return undefined;
  };
  let cur = t;
  for (const parent of ancestorsOf(t, byName)) {
    const key = parsePartitionKey(
      parent.partition_key,
      parent.columns.map((c) => c.name),
    );
    const bound = parsePartitionBound(cur.partition_bound);
    if (!key?.columns || !bound) return undefined;
    const cols = key.columns.map((n) => t.columns.find((c) => c.name === n));
    if (cols.some((c) => !c)) return undefined;
    const siblings = (partitionsOf.get(qualifiedName(parent)) ?? []).filter((s) => s !== cur).map((s) => parsePartitionBound(s.partition_bound));
    const level = levelValues(
      parent,
      cols as ColumnInfo[],
      bound,
      siblings.filter((s) => s !== undefined),
      k,
      keyColumn,
      foreignKeyOf,
    );
    if (!level) return undefined;
    for (const [c, v] of level) if (!out.has(c)) out.set(c, v);
    cur = parent;
  }
  return out;
}

/** Partitions by their parent's `schema.name`. */
export function partitionsByParent(tables: readonly TableInfo[]): Map<string, TableInfo[]> {
  const out = new Map<string, TableInfo[]>();
  for (const t of tables) if (t.partition_of) out.set(t.partition_of, [...(out.get(t.partition_of) ?? []), t]);
  return out;
}
