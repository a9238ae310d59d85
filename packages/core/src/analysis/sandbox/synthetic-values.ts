import type { ColumnInfo, EnumInfo } from '../../introspection/schema-snapshot';

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** Length limit from a `format_type` text such as "character varying(40)". */
const lengthLimit = (dataType: string): number | undefined => {
  const m = /^(character varying|varchar|character|char|bpchar)\((\d+)\)/.exec(dataType);
  return m ? Number(m[2]) : undefined;
};

/**
 * A text value PostgreSQL parses into the column's type for synthetic row `i` (1-based),
 * distinct per row where the type allows so unique keys hold; enums take their first label.
 * Undefined when no sensible value exists (the column is then left NULL or defaulted).
 */
export function syntheticValue(col: ColumnInfo, i: number, enums: ReadonlyMap<string, EnumInfo>): string | undefined {
  const udt = col.udt_name.toLowerCase();
  if (udt.startsWith('_')) return '{}';
  const en = enums.get(col.udt_name) ?? enums.get(col.data_type.replace(/^.*\./, '').replace(/"/g, ''));
  if (en) return en.values[0];
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
    case 'xml':
      return `<row n="${i}"/>`;
    case 'point':
      return `(${i},${i})`;
    case 'vector': {
      const dim = Number(/\((\d+)\)/.exec(col.data_type)?.[1] ?? 3);
      return `[${Array.from({ length: dim }, (_, k) => (k === 0 ? i : 0)).join(',')}]`;
    }
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'citext':
    case 'name': {
      const s = `${col.name.slice(0, 20)}_${i}`;
      const n = lengthLimit(col.data_type) ?? (udt === 'bpchar' ? 1 : undefined);
      return n !== undefined && s.length > n ? s.slice(-n) : s;
    }
    default:
      return undefined;
  }
}
