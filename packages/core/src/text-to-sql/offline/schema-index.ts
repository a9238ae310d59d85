import { quoteIdent } from '../../pg/quote';
import type { ColumnInfo, ColumnValueSample, EnumInfo, TableInfo } from '../../introspection/schema-snapshot';
import { identifierStems } from './words';

export type ColumnKind = 'number' | 'text' | 'boolean' | 'date' | 'enum' | 'other';

export interface IndexedColumn {
  column: ColumnInfo;
  kind: ColumnKind;
  /** Meaningful stems of the column name ("created_at" -> ["creat"]). */
  stems: string[];
  enumValues: string[];
  /** An integer column holding only 0 and 1 (per its sampled values): a flag, compared with 1 and 0. */
  intFlag: boolean;
  /** A year held as a number (`release_year`, `indep_year`): "in 2006" compares it with 2006. */
  yearLike: boolean;
  /** Stems of the column's comment, for matching words the name does not carry. */
  commentStems: string[];
}

export interface IndexedTable {
  table: TableInfo;
  /** How SQL names it: `orders`, or `sales.orders` outside public. */
  sqlName: string;
  alias: string;
  stems: string[];
  columns: IndexedColumn[];
}

const NUMBER = new Set(['int2', 'int4', 'int8', 'numeric', 'float4', 'float8', 'money', 'decimal']);
const TEXT = new Set(['text', 'varchar', 'bpchar', 'citext', 'name']);
const DATE = new Set(['date', 'timestamp', 'timestamptz']);
const UNIT_SUFFIX = new Set(['km', 'kg', 'mi', 'lb', 'usd', 'eur', 'gbp', 'cent', 'pct', 'minut', 'minute', 'second', 'sec', 'ms', 'kwh']);
/** Name parts that say nothing about meaning. */
const TRIVIAL = new Set(['id', 'at', 'is', 'ha', 'on', 'the', 'of', 'fk', 'num', 'no']);

function kindOf(column: ColumnInfo, enums: readonly EnumInfo[]): { kind: ColumnKind; values: string[] } {
  const udt = column.udt_name.replace(/^_/, '');
  if (NUMBER.has(udt)) return { kind: 'number', values: [] };
  if (TEXT.has(udt)) return { kind: 'text', values: [] };
  if (udt === 'bool') return { kind: 'boolean', values: [] };
  if (DATE.has(udt)) return { kind: 'date', values: [] };
  const e = enums.find((x) => x.name === udt);
  return e ? { kind: 'enum', values: e.values } : { kind: 'other', values: [] };
}

/** Boolean columns are named for what they say: `activebool`, `is_active`, `has_paid`. */
const booleanName = (name: string): string => name.replace(/_?bool(ean)?$/i, '').replace(/^(is|has)_/i, '') || name;

export function indexSchema(tables: readonly TableInfo[], enums: readonly EnumInfo[], values: readonly ColumnValueSample[] = []): IndexedTable[] {
  const sampled = new Map(values.map((v) => [`${v.schema}.${v.table}.${v.column}`, v.values]));
  const aliases = new Set<string>();
  return tables.map((table) => {
    let alias = table.name
      .split('_')
      .map((p) => p[0] ?? '')
      .join('')
      .toLowerCase();
    if (!/^[a-z]/.test(alias)) alias = `t${alias}`;
    let unique = alias;
    for (let n = 2; aliases.has(unique); n++) unique = `${alias}${n}`;
    aliases.add(unique);
    return {
      table,
      sqlName: table.schema === 'public' ? quoteIdent(table.name) : `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`,
      alias: unique,
      stems: identifierStems(table.name),
      columns: table.columns.map((column) => {
        const found = kindOf(column, enums);
        const sample = sampled.get(`${table.schema}.${table.name}.${column.name}`);
        // Both 0 and 1 seen: a column of ones alone (a quantity) is no flag.
        const intFlag = found.kind === 'number' && sample !== undefined && sample.length === 2 && sample.includes('0') && sample.includes('1');
        const kind: ColumnKind = intFlag ? 'boolean' : found.kind;
        const all = identifierStems(kind === 'boolean' ? booleanName(column.name) : column.name).filter((s) => !TRIVIAL.has(s));
        // "distance" names distance_km: a unit at the end of a name is not said in a question.
        const stems = all.length > 1 && UNIT_SUFFIX.has(all.at(-1)!) ? all.slice(0, -1) : all;
        const yearLike = (kind === 'number' || kind === 'other') && stems.includes('year') && !/(^|_)id$/.test(column.name);
        const commentStems = column.comment ? identifierStems(column.comment).filter((s) => s.length > 2 && !TRIVIAL.has(s)) : [];
        return { column, kind, stems, enumValues: found.values, intFlag, yearLike, commentStems };
      }),
    };
  });
}

export const columnRef = (t: IndexedTable, c: IndexedColumn): string => `${t.alias}.${quoteIdent(c.column.name)}`;

/** `col = true` / `col = 1` (or false / 0) for a boolean or a 0/1 flag column. */
export const flagTest = (t: IndexedTable, c: IndexedColumn, value: boolean): string =>
  `${columnRef(t, c)} = ${c.intFlag ? (value ? '1' : '0') : value ? 'true' : 'false'}`;

/** A column that names a row for people: name, title, label, email... */
export function labelColumn(t: IndexedTable): IndexedColumn | undefined {
  const text = t.columns.filter((c) => c.kind === 'text');
  for (const wanted of ['name', 'title', 'label', 'email', 'username', 'code', 'sku']) {
    const hit = text.find((c) => c.column.name === wanted) ?? text.find((c) => c.column.name.endsWith(`_${wanted}`) || c.column.name.startsWith(`${wanted}_`));
    if (hit) return hit;
  }
  return text[0];
}

/** The primary key column (first one), or the first column. */
export const keyColumn = (t: IndexedTable): IndexedColumn | undefined => t.columns.find((c) => c.column.name === t.table.primary_key?.[0]) ?? t.columns[0];
