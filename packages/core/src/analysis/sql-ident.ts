/** Reserved words that must be quoted as identifiers (PostgreSQL's reserved and type-function keywords). */
const RESERVED = new Set(
  ('all analyse analyze and any array as asc asymmetric authorization binary both case cast check collate collation column concurrently constraint create cross ' +
    'current_catalog current_date current_role current_schema current_time current_timestamp current_user default deferrable desc distinct do else end except ' +
    'false fetch for foreign freeze from full grant group having ilike in initially inner intersect into is isnull join lateral leading left like limit localtime ' +
    'localtimestamp natural not notnull null offset on only or order outer overlaps placing primary references returning right select session_user similar some ' +
    'symmetric system_user table tablesample then to trailing true union unique user using variadic verbose when where window with').split(' '),
);

/** Quotes an identifier only when PostgreSQL needs it, so generated SQL stays readable. */
export function quoteIdent(name: string): string {
  if (/^[a-z_][a-z0-9_$]*$/.test(name) && !RESERVED.has(name)) return name;
  return `"${name.replace(/"/g, '""')}"`;
}

/** `schema.name` (as the snapshot keys it) -> quoted SQL name; `public` is kept explicit. */
export function quoteQualified(qualified: string): string {
  const dot = qualified.indexOf('.');
  if (dot < 0) return quoteIdent(qualified);
  return `${quoteIdent(qualified.slice(0, dot))}.${quoteIdent(qualified.slice(dot + 1))}`;
}

export const quoteLiteral = (s: string): string => `'${s.replace(/'/g, "''")}'`;
