import { quoteIdent } from '../../pg/quote';

/** `schema.name` quoted for SQL, both parts through the one quoting helper. */
export const qname = (schema: string, name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;

/** `schema.name` as statements and skipped objects name things (unquoted, as the snapshot keys them). */
export const label = (schema: string, name: string): string => `${schema}.${name}`;
