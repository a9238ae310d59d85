import type pg from 'pg';
import { type ColumnValuesBounds, columnValuesQuery } from './queries/column-values';
import type { ColumnValueSample, TableInfo } from './schema-snapshot';

/**
 * Value awareness for text-to-SQL: the distinct values of low-cardinality text columns, so that
 * "Italian", "paid" or "PG-13" in a question map to the column that holds them. Settings
 * (`ServiceSettings.textToSql`, docs/text-to-sql.md): `DBOPS_TEXT_TO_SQL_VALUE_SAMPLES=false`
 * reads no values at all; `DBOPS_TEXT_TO_SQL_VALUE_SAMPLE_MAX` is the most distinct values a
 * column may have to be sampled (default 500).
 */
export interface ValueSampleSettings {
  enabled: boolean;
  bounds: ColumnValuesBounds;
  /** Values kept per snapshot at most; the tables listed first are sampled first. */
  maxTotal: number;
  /** Statement timeout of each sampling query, ms. */
  statementTimeoutMs: number;
  /** Time budget of the whole sampling, ms; what is not sampled by then is left out. */
  budgetMs: number;
}

export const valueSampleSettings = (textToSql: { valueSamples: boolean; valueSampleMax: number }): ValueSampleSettings => ({
  enabled: textToSql.valueSamples,
  bounds: { rowsRead: 10_000, maxValues: textToSql.valueSampleMax, maxLength: 80 },
  maxTotal: 20_000,
  statementTimeoutMs: 2_000,
  budgetMs: 8_000,
});

/**
 * Column names whose values are never read: credentials, contact details and personal names or
 * identifiers. Matched on the name's parts, so `billing_email` and `user_password_hash` are
 * sensitive and `passenger_count` is not.
 */
const SENSITIVE =
  /(^|_)(e?_?mail|emails?|email_address|pass|passwd|password|pwd|secret|token|api_?key|salt|hash|ssn|social_security|tax_id|national_id|passport|phone|telephone|mobile|cell|fax|address|street|zip|postal_code|postcode|iban|account_number|card|card_number|credit_card|cvv|pin|dob|birth_date|birthdate|date_of_birth|ip|ip_address|first_name|last_name|full_name|middle_name|given_name|family_name|surname|username|user_name|login)(_|$)/;

export const isSensitiveColumn = (name: string): boolean => SENSITIVE.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'citext']);
const INTEGER_TYPES = new Set(['int2', 'int4', 'int8']);

/**
 * Columns worth sampling, of tables (partitions are read through their parent), never sensitive
 * ones: text columns, and integer columns that are not keys, which are kept only when they hold
 * nothing but 0 and 1 (a flag such as `discontinued`).
 */
export function sampleCandidates(tables: readonly TableInfo[]): Array<{ table: TableInfo; columns: string[]; flags: Set<string> }> {
  return tables
    .filter((t) => (t.kind === 'table' || t.kind === 'partitioned_table') && !t.partition_of)
    .map((table) => {
      const keys = new Set([...(table.primary_key ?? []), ...table.foreign_keys.flatMap((f) => f.columns)]);
      const usable = table.columns.filter((c) => c.generated === null && !isSensitiveColumn(c.name));
      const flags = usable.filter((c) => INTEGER_TYPES.has(c.udt_name) && !keys.has(c.name) && !/(^|_)id$/i.test(c.name)).map((c) => c.name);
      const texts = usable.filter((c) => TEXT_TYPES.has(c.udt_name)).map((c) => c.name);
      return { table, columns: [...texts, ...flags], flags: new Set(flags) };
    })
    .filter((x) => x.columns.length > 0);
}

/**
 * Reads the samples on `client` (a session of its own: read-only, short statement timeout).
 * A table that cannot be read (no privilege, timeout) is skipped, never fails introspection.
 */
export async function sampleColumnValues(client: pg.Client, tables: readonly TableInfo[], settings: ValueSampleSettings): Promise<ColumnValueSample[]> {
  if (!settings.enabled) return [];
  const out: ColumnValueSample[] = [];
  const started = performance.now();
  let total = 0;
  await client.query(`SET default_transaction_read_only = on; SET statement_timeout = ${settings.statementTimeoutMs}`);
  for (const { table, columns, flags } of sampleCandidates(tables)) {
    if (performance.now() - started > settings.budgetMs || total >= settings.maxTotal) break;
    let row: Record<string, string[]> | undefined;
    try {
      row = (await client.query(columnValuesQuery(table.schema, table.name, columns, settings.bounds))).rows[0] as Record<string, string[]> | undefined;
    } catch {
      continue;
    }
    columns.forEach((column, i) => {
      const values = row?.[String(i)] ?? [];
      if (values.length === 0 || values.length > settings.bounds.maxValues || total + values.length > settings.maxTotal) return;
      if (flags.has(column) && !values.every((v) => v === '0' || v === '1')) return;
      total += values.length;
      out.push({ schema: table.schema, table: table.name, column, values: [...values].sort() });
    });
  }
  return out;
}
