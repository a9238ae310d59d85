import { QUOTED_KEYWORDS } from './keywords';

const PLAIN = /^[a-z_][a-z0-9_]*$/;

/**
 * An identifier as PostgreSQL's own `quote_ident` writes it: bare only when it is lower case
 * letters, digits and underscores and not a keyword that would be read as one (so `user`,
 * `order`, `group`, `select` and `Mixed Case` are quoted, and `user` never means CURRENT_USER).
 * Every identifier the service writes into SQL goes through here.
 */
export function quoteIdent(name: string): string {
  if (PLAIN.test(name) && !QUOTED_KEYWORDS.has(name)) return name;
  return `"${name.replace(/"/g, '""')}"`;
}

/** `schema.name` (as snapshots key relations) -> a quoted qualified name; `name` alone works too. */
export function quoteQualified(qualified: string): string {
  const dot = qualified.indexOf('.');
  if (dot < 0) return quoteIdent(qualified);
  return `${quoteIdent(qualified.slice(0, dot))}.${quoteIdent(qualified.slice(dot + 1))}`;
}

/** Schema and name, each quoted. */
export const quoteName = (schema: string, name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;

/**
 * A string literal as PostgreSQL's `quote_literal` writes it: with a backslash present it uses
 * the E'' form, so the value reads the same whatever `standard_conforming_strings` is.
 */
export function quoteLiteral(value: string): string {
  const body = value.replace(/'/g, "''");
  return value.includes('\\') ? `E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`;
}
