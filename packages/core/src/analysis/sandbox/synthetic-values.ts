import type { ColumnInfo, EnumInfo, SchemaSnapshot, TableInfo } from '../../introspection/schema-snapshot';
import type { DomainInfo } from '../../introspection/schema-model/schema-model';

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** Length limit from a `format_type` text such as "character varying(40)". */
const lengthLimit = (dataType: string): number | undefined => {
  const m = /^(character varying|varchar|character|char|bpchar)\((\d+)\)/.exec(dataType);
  return m ? Number(m[2]) : undefined;
};

/** What values of a schema's columns must satisfy beyond their type: enums, domains, CHECK lists. */
export interface ValueContext {
  enums: ReadonlyMap<string, EnumInfo>;
  /** Domains by `name` and `schema.name`. */
  domains: ReadonlyMap<string, DomainInfo>;
}

export function valueContext(snapshot: SchemaSnapshot): ValueContext {
  const enums = new Map<string, EnumInfo>();
  for (const e of snapshot.enums) {
    enums.set(e.name, e);
    enums.set(`${e.schema}.${e.name}`, e);
  }
  const domains = new Map<string, DomainInfo>();
  for (const t of snapshot.model?.types ?? []) {
    if (t.kind !== 'domain') continue;
    domains.set(t.name, t);
    domains.set(`${t.schema}.${t.name}`, t);
  }
  return { enums, domains };
}

/** `format_type` names of built-in types as their `udt_name`, for domains (which only record the base type's text). */
const BASE_UDT: Array<[RegExp, string]> = [
  [/^smallint\b/, 'int2'],
  [/^integer\b/, 'int4'],
  [/^bigint\b/, 'int8'],
  [/^(numeric|decimal)\b/, 'numeric'],
  [/^real\b/, 'float4'],
  [/^double precision\b/, 'float8'],
  [/^boolean\b/, 'bool'],
  [/^character varying\b/, 'varchar'],
  [/^character\b/, 'bpchar'],
  [/^text\b/, 'text'],
  [/^date\b/, 'date'],
  [/^timestamp\(?\d*\)? with time zone/, 'timestamptz'],
  [/^timestamp\b/, 'timestamp'],
  [/^uuid\b/, 'uuid'],
  [/^jsonb\b/, 'jsonb'],
  [/^json\b/, 'json'],
];
const udtOfBase = (base: string): string => BASE_UDT.find(([re]) => re.test(base))?.[1] ?? base.replace(/^.*\./, '').replace(/\(.*$/, '').replace(/"/g, '');

const unquoteLiteral = (s: string): string => s.slice(1, -1).replace(/''/g, "'");

/**
 * Values a CHECK constraint lists for a column: `col IN ('a', 'b')`, which PostgreSQL keeps as
 * `(col = ANY (ARRAY['a'::text, 'b'::text]))` (with casts around the column for varchar), or
 * `col = 'a'`. `column` is the column's name, or `VALUE` for a domain's check.
 */
export function listedValues(definition: string, column: string): string[] | undefined {
  const name =
    column === 'VALUE'
      ? 'VALUE'
      : `(?:"${column.replace(/"/g, '""').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"|${/^[a-z_][a-z0-9_$]*$/.test(column) ? column : '\\u0000'})`;
  const any = new RegExp(`\\(*${name}\\)*(?:::[\\w .]+)?\\s*=\\s*ANY\\s*\\(\\(*ARRAY\\[(.*?)\\]`, 's').exec(definition);
  const eq = any ? undefined : new RegExp(`\\(*${name}\\)*(?:::[\\w .]+)?\\s*=\\s*('(?:[^']|'')*'|-?\\d+(?:\\.\\d+)?)`).exec(definition);
  const list = any?.[1] ?? eq?.[1];
  if (!list) return undefined;
  const values = [...list.matchAll(/'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?)/g)].map((m) => (m[1] !== undefined ? unquoteLiteral(`'${m[1]}'`) : m[2]!));
  return values.length ? values : undefined;
}

/** Values the table's single-column CHECK constraints allow for `col`, when one lists them. */
export function checkedValues(t: TableInfo, col: ColumnInfo, ctx: ValueContext): string[] | undefined {
  for (const c of t.constraints) {
    if (c.type !== 'check' || (c.columns.length && !(c.columns.length === 1 && c.columns[0] === col.name))) continue;
    const v = listedValues(c.definition, col.name);
    if (v) return v;
  }
  const domain = ctx.domains.get(col.udt_name) ?? ctx.domains.get(col.data_type.replace(/"/g, ''));
  for (const c of domain?.constraints ?? []) {
    const v = listedValues(c.definition, 'VALUE');
    if (v) return v;
  }
  return undefined;
}

/**
 * A text value PostgreSQL parses into the column's type for synthetic row `i` (1-based),
 * distinct per row where `distinct` asks it (keys). In order of preference: a value a CHECK
 * list allows; the live data's own values from `pg_stats` (histogram bounds are distinct, so
 * keys take those; other columns their most common values), which have the right type and
 * shape for any type (a text column holding numbers gets numbers); the first enum label; a
 * made-up value of the (domain's base) type. Undefined when no sensible value exists (the
 * column is then left NULL or defaulted).
 */
export function syntheticValue(
  col: ColumnInfo,
  i: number,
  ctx: ValueContext,
  options: { distinct?: boolean; allowed?: readonly string[] } = {},
): string | undefined {
  const pick = (list: readonly string[] | undefined, needDistinct: boolean): string | undefined => {
    if (!list?.length) return undefined;
    if (needDistinct && i > list.length) return undefined;
    return list[(i - 1) % list.length];
  };
  const listed = pick(options.allowed, !!options.distinct);
  if (listed !== undefined) return listed;
  const stats = col.stats;
  const fromStats = options.distinct ? pick(stats?.bounds, true) : (pick(stats?.common, false) ?? pick(stats?.bounds, false));
  if (fromStats !== undefined && !col.udt_name.startsWith('_')) return fromStats;
  const domain = ctx.domains.get(col.udt_name) ?? ctx.domains.get(col.data_type.replace(/"/g, ''));
  const udt = domain ? udtOfBase(domain.base_type) : col.udt_name.toLowerCase();
  const dataType = domain ? domain.base_type : col.data_type;
  if (udt.startsWith('_')) return '{}';
  const en = ctx.enums.get(col.udt_name) ?? ctx.enums.get(col.data_type.replace(/^.*\./, '').replace(/"/g, '')) ?? ctx.enums.get(udt);
  if (en) return en.values[options.distinct ? (i - 1) % en.values.length : 0];
  switch (udt) {
    case 'int2':
    case 'int4':
    case 'int8':
    case 'numeric':
    case 'float4':
    case 'float8':
    case 'money':
    case 'oid':
      return String(i);
    case 'bool':
      return i % 2 === 0 ? 'true' : 'false';
    case 'date':
      return `2024-01-${pad(i % 28 || 28, 2)}`;
    case 'timestamp':
    case 'timestamptz':
      return `2024-01-${pad(i % 28 || 28, 2)} 12:00:00`;
    case 'time':
    case 'timetz':
      return `12:${pad(i % 60, 2)}:00`;
    case 'interval':
      return `${i} days`;
    case 'uuid':
      return `00000000-0000-4000-8000-${pad(i, 12)}`;
    case 'json':
    case 'jsonb':
      return JSON.stringify({ n: i });
    case 'bytea':
      return `\\x${pad(i, 2)}`;
    case 'inet':
    case 'cidr':
      return `10.0.${Math.floor(i / 250)}.${i % 250}`;
    case 'macaddr':
      return `08:00:2b:01:02:${pad(i % 100, 2)}`;
    case 'tsvector':
      return `word${i}`;
    case 'tsquery':
      return `word${i}`;
    case 'xml':
      return `<row n="${i}"/>`;
    case 'point':
      return `(${i},${i})`;
    case 'ltree':
      return `top.n${i}`;
    case 'hstore':
      return `"n"=>"${i}"`;
    case 'int4range':
    case 'int8range':
    case 'numrange':
      return `[${i},${i + 1})`;
    case 'daterange':
      return `[2024-01-${pad(i % 28 || 28, 2)},2024-02-01)`;
    case 'tsrange':
    case 'tstzrange':
      return `[2024-01-${pad(i % 28 || 28, 2)} 00:00,2024-02-01 00:00)`;
    case 'vector': {
      const dim = Number(/\((\d+)\)/.exec(dataType)?.[1] ?? 3);
      return `[${Array.from({ length: dim }, (_, k) => (k === 0 ? i : 0)).join(',')}]`;
    }
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'citext':
    case 'name': {
      const s = `${col.name.slice(0, 20)}_${i}`;
      const n = lengthLimit(dataType) ?? (udt === 'bpchar' ? 1 : undefined);
      return n !== undefined && s.length > n ? s.slice(-n) : s;
    }
    default:
      return undefined;
  }
}
