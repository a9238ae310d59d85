import { quoteIdent } from '../../pg/quote';
import type { ColumnInfo, EnumInfo, TableInfo } from '../../introspection/schema-snapshot';
import { identifierStems } from './words';

export type ColumnKind = 'number' | 'text' | 'boolean' | 'date' | 'enum' | 'other';

export interface IndexedColumn {
  column: ColumnInfo;
  kind: ColumnKind;
  /** Meaningful stems of the column name ("created_at" -> ["creat"]). */
  stems: string[];
  enumValues: string[];
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

export function indexSchema(tables: readonly TableInfo[], enums: readonly EnumInfo[]): IndexedTable[] {
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
        const { kind, values } = kindOf(column, enums);
        return { column, kind, stems: identifierStems(column.name).filter((s) => !TRIVIAL.has(s)), enumValues: values };
      }),
    };
  });
}

export const columnRef = (t: IndexedTable, c: IndexedColumn): string => `${t.alias}.${quoteIdent(c.column.name)}`;

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
export const keyColumn = (t: IndexedTable): IndexedColumn | undefined =>
  t.columns.find((c) => c.column.name === t.table.primary_key?.[0]) ?? t.columns[0];
