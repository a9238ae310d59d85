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

/** What sampling reads of a table: its structure (the catalogs give it before the sizes). */
export type SampledTable = Pick<TableInfo, 'schema' | 'name' | 'kind' | 'partition_of' | 'primary_key' | 'foreign_keys' | 'columns'>;

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'citext']);
const INTEGER_TYPES = new Set(['int2', 'int4', 'int8']);

/**
 * Columns worth sampling, of tables (partitions are read through their parent), never sensitive
 * ones: text columns, and integer columns that are not keys, which are kept only when they hold
 * nothing but 0 and 1 (a flag such as `discontinued`).
 */
export function sampleCandidates(tables: readonly SampledTable[]): Array<{ table: SampledTable; columns: string[]; flags: Set<string> }> {
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

/** Tables' sampling queries sent in one message: one round trip for many small tables. */
const TABLES_PER_TRIP = 12;

type Candidate = ReturnType<typeof sampleCandidates>[number];

/** Each query's one row (undefined where its table could not be read); a failed message is retried table by table. */
async function readBatch(client: pg.Client, batch: readonly Candidate[], bounds: ColumnValuesBounds): Promise<Array<Record<string, string[]> | undefined>> {
  const queries = batch.map(({ table, columns }) => columnValuesQuery(table.schema, table.name, columns, bounds));
  if (queries.length > 1) {
    try {
      const res = (await client.query(queries.join(';\n'))) as unknown as pg.QueryResult[];
      return res.map((r) => r.rows[0] as Record<string, string[]> | undefined);
    } catch {
      // One table refused (a privilege, a timeout) stops the message: each alone below.
    }
  }
  const rows: Array<Record<string, string[]> | undefined> = [];
  for (const q of queries)
    rows.push(
      await client.query(q).then(
        (r) => r.rows[0] as Record<string, string[]> | undefined,
        () => undefined,
      ),
    );
  return rows;
}

/**
 * Reads the samples on the `clients` that come (sessions of their own, each made read-only with
 * a short statement timeout), a dozen tables per round trip, the clients taking the next tables
 * as they free up. A client that comes late (or undefined) joins late (or never), so a
 * connection still busy with the catalogs can join once it is done. A table that cannot be read
 * (no privilege, timeout) is skipped, never fails introspection. The result does not depend on
 * how the work was split: the values are kept in the tables' order, up to `maxTotal`.
 */
export async function sampleColumnValues(
  clients: pg.Client | ReadonlyArray<pg.Client | Promise<pg.Client | undefined>>,
  tables: readonly SampledTable[],
  settings: ValueSampleSettings,
): Promise<ColumnValueSample[]> {
  if (!settings.enabled) return [];
  const started = performance.now();
  const candidates = sampleCandidates(tables);
  const rows: Array<Record<string, string[]> | undefined> = [];
  let next = 0;
  // What is kept of the tables read so far, in the tables' order (as one client reading them in
  // turn would keep it): once that reaches maxTotal, nothing after it can be kept.
  let done = 0;
  const kept: ColumnValueSample[] = [];
  let total = 0;
  const keep = (): void => {
    for (; done < candidates.length && done in rows; done++) {
      const { table, columns, flags } = candidates[done]!;
      const row = rows[done];
      columns.forEach((column, i) => {
        const values = row?.[String(i)] ?? [];
        if (values.length === 0 || values.length > settings.bounds.maxValues || total + values.length > settings.maxTotal) return;
        if (flags.has(column) && !values.every((v) => v === '0' || v === '1')) return;
        total += values.length;
        kept.push({ schema: table.schema, table: table.name, column, values: [...values].sort() });
      });
    }
  };
  const worker = async (pending: pg.Client | Promise<pg.Client | undefined>): Promise<void> => {
    const client = await pending;
    if (!client || next >= candidates.length) return;
    await client.query(`SET default_transaction_read_only = on; SET statement_timeout = ${settings.statementTimeoutMs}`);
    while (next < candidates.length && performance.now() - started <= settings.budgetMs && total < settings.maxTotal) {
      const from = next;
      next = Math.min(candidates.length, from + TABLES_PER_TRIP);
      const got = await readBatch(client, candidates.slice(from, next), settings.bounds);
      got.forEach((row, i) => (rows[from + i] = row));
      keep();
    }
  };
  await Promise.all((Array.isArray(clients) ? clients : [clients]).map((c) => worker(c).catch(() => undefined)));
  // A client lost midway leaves a hole: what follows it is left out, as after a budget cut.
  return kept;
}
