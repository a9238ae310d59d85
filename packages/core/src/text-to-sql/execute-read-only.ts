import { connectPg } from '../connections/connect-pg';
import { connectTimeoutMs } from '../connections/connection-settings';
import { loadConnectionTarget } from '../connections/load-connection-target';
import type { KeyProvider } from '../crypto/key-provider';
import type { CoreDeps } from '../deps';
import { AppError } from '../errors/app-error';
import { type JsonValue, jsonParserFor } from '../sql-execution/json-values';

/** Spec section 8: text-to-SQL statement timeout. */
export const TEXT_TO_SQL_TIMEOUT_MS = 10_000;
/** Spec section 8: text-to-SQL row cap. */
export const TEXT_TO_SQL_ROW_CAP = 500;

/** Rows of an executed SELECT, at most the cap. */
export interface ReadOnlyResult {
  columns: string[];
  rows: JsonValue[][];
  /** True when the query had more rows than the cap. */
  capped: boolean;
}

/** The database refused or cancelled the query; the message is safe to show the user. */
export class ExecutionError extends Error {
  constructor(
    message: string,
    readonly sqlstate: string | null,
  ) {
    super(message);
    this.name = 'ExecutionError';
  }
}

const types = { getTypeParser: (oid: number) => jsonParserFor(oid) };

function describe(error: unknown, timeoutMs: number): ExecutionError {
  if (error instanceof AppError) return new ExecutionError(error.message, null);
  const e = error as { code?: string; message?: string };
  if (e.code === '57014') return new ExecutionError(`The query was cancelled after the ${timeoutMs / 1000} s statement timeout.`, e.code);
  if (e.code === '25006') return new ExecutionError('The query tried to write, which a read-only transaction does not allow.', e.code);
  return new ExecutionError(e.message ?? 'The query failed on the database.', typeof e.code === 'string' ? e.code : null);
}

/**
 * Step 6 of the pipeline: runs `sql` on the user's database in a READ ONLY transaction that
 * is always rolled back, with the statement timeout set inside it (SET LOCAL, which poolers
 * accept). Rows come through a cursor so a huge result is never read past the cap.
 * Throws {@link ExecutionError}; NOT_FOUND (AppError) for another user's connection.
 */
export async function executeReadOnly(
  deps: CoreDeps & { keyProvider: KeyProvider },
  userId: string,
  connectionId: string,
  sql: string,
  options: { timeoutMs?: number; rowCap?: number } = {},
): Promise<ReadOnlyResult> {
  const timeoutMs = options.timeoutMs ?? TEXT_TO_SQL_TIMEOUT_MS;
  const cap = options.rowCap ?? TEXT_TO_SQL_ROW_CAP;
  const target = await loadConnectionTarget(deps, userId, connectionId);
  let client;
  try {
    ({ client } = await connectPg(target, {
      applicationName: 'dbops-text-to-sql',
      connectTimeoutMs: connectTimeoutMs(deps.settings),
      // A backstop in case the server never answers the cancel of statement_timeout.
      queryTimeoutMs: timeoutMs + 5_000,
    }));
  } catch (error) {
    throw describe(error, timeoutMs);
  }
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}`);
    await client.query("SET LOCAL DateStyle = 'ISO, YMD'");
    await client.query(`DECLARE dbops_t2s NO SCROLL CURSOR FOR ${sql}`);
    const res = await client.query({ text: `FETCH ${cap + 1} FROM dbops_t2s`, rowMode: 'array', types });
    const rows = res.rows as JsonValue[][];
    return { columns: res.fields.map((f) => f.name), rows: rows.slice(0, cap), capped: rows.length > cap };
  } catch (error) {
    throw describe(error, timeoutMs);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
