/**
 * Whether ALTER COLUMN TYPE from `from` (snapshot `format_type` text) to `to` (as written)
 * can skip the table rewrite because the change is binary coercible and only relaxes a limit,
 * and whether it narrows the type (possible data loss or failure).
 */
export interface TypeChange {
  rewrite: boolean;
  narrowing: boolean;
}

const ALIASES: Record<string, string> = {
  int: 'integer',
  int4: 'integer',
  int2: 'smallint',
  int8: 'bigint',
  'character varying': 'varchar',
  character: 'char',
  bpchar: 'char',
  bool: 'boolean',
  float8: 'double precision',
  float4: 'real',
  decimal: 'numeric',
  timestamptz: 'timestamp with time zone',
  'timestamp without time zone': 'timestamp',
  timetz: 'time with time zone',
};

interface ParsedType {
  base: string;
  mods: number[];
}

// Type texts repeat (a snapshot's column types, the types migrations write): each is parsed once.
// Bounded, as the texts come from user input; the parsed values are shared, so read-only.
const parsedTypes = new Map<string, Readonly<ParsedType>>();
const MAX_PARSED_TYPES = 4096;

export function parseTypeText(text: string): Readonly<ParsedType> {
  let parsed = parsedTypes.get(text);
  if (!parsed) {
    if (parsedTypes.size >= MAX_PARSED_TYPES) parsedTypes.clear();
    parsedTypes.set(text, (parsed = parseTypeTextUncached(text)));
  }
  return parsed;
}

function parseTypeTextUncached(text: string): ParsedType {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/^pg_catalog\./, '');
  const m = /^([a-z_ ."0-9]+?)\s*(?:\(([^)]*)\))?(\s+with(?:out)? time zone)?(\[\])?$/.exec(t);
  if (!m) return { base: t, mods: [] };
  let base = `${m[1]!.trim()}${m[3] ?? ''}${m[4] ?? ''}`;
  base = ALIASES[base] ?? base;
  const mods = m[2]?.trim()
    ? m[2]
        .split(',')
        .map((x) => Number(x.trim()))
        .filter(Number.isFinite)
    : [];
  return { base, mods };
}

const INT_WIDTH: Record<string, number> = { smallint: 2, integer: 4, bigint: 8 };

const textual = (x: string): boolean => x === 'text' || x === 'varchar' || x === 'char';

export function classifyTypeChange(from: string | undefined, to: string): TypeChange {
  if (!from) return { rewrite: true, narrowing: false };
  const a = parseTypeText(from);
  const b = parseTypeText(to);
  if (a.base === b.base) {
    if (a.base === 'varchar' || a.base === 'char' || a.base === 'bit varying') {
      const la = a.mods[0] ?? Infinity;
      const lb = b.mods[0] ?? Infinity;
      if (a.base === 'char' && la !== lb) return { rewrite: true, narrowing: lb < la };
      return { rewrite: lb < la, narrowing: lb < la };
    }
    if (a.base === 'numeric') {
      if (!b.mods.length) return { rewrite: false, narrowing: false };
      if (!a.mods.length) return { rewrite: true, narrowing: true };
      const [pa = 0, sa = 0] = a.mods;
      const [pb = 0, sb = 0] = b.mods;
      if (sa === sb && pb >= pa) return { rewrite: false, narrowing: false };
      return { rewrite: true, narrowing: pb - sb < pa - sa || sb < sa };
    }
    const same = a.mods.join(',') === b.mods.join(',');
    return { rewrite: !same, narrowing: false };
  }
  if ((a.base === 'varchar' && b.base === 'text') || (a.base === 'text' && b.base === 'varchar' && !b.mods.length)) return { rewrite: false, narrowing: false };
  if (a.base === 'text' && b.base === 'varchar') return { rewrite: true, narrowing: true };
  if (a.base === 'cidr' && b.base === 'inet') return { rewrite: false, narrowing: false };
  if (a.base in INT_WIDTH && b.base in INT_WIDTH) return { rewrite: true, narrowing: INT_WIDTH[b.base]! < INT_WIDTH[a.base]! };
  if (a.base === 'timestamp with time zone' && b.base === 'timestamp') return { rewrite: true, narrowing: true };
  // Anything converted from text into a stricter type may fail on existing values.
  return { rewrite: true, narrowing: textual(a.base) && !textual(b.base) };
}
