import { isoOrNull, iso } from '../util/timestamps';
import type { MigrationError, MigrationResult } from './migration-outcome';

/** Request states. `failed` is beyond the spec's table (section 3 leaves failure open). */
export type RequestStatus = 'pending' | 'executing' | 'completed' | 'failed';

/** The migration request record as the API answers it (spec section 2), bare. */
export interface MigrationRequestRecord {
  request_id: string;
  status: RequestStatus;
  progress: string | null;
  /**
   * Rows the batched step running (or the last one run) has changed, in committed batches;
   * null when the migration has no batched step or none has started. Beyond the spec
   * (docs/api-decisions.md).
   */
  rows_done: number | null;
  /** Rows that step changes, counted at its start; null like {@link rows_done}. */
  rows_total: number | null;
  sql: string;
  connection_id: string;
  result: MigrationResult | null;
  error: MigrationError | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** A row of `migration_requests` as the queries here select it. */
export interface RequestRow {
  id: string;
  user_id: string;
  connection_id: string;
  sql: string;
  status: RequestStatus;
  progress: string | null;
  rows_done: string | number | null;
  rows_total: string | number | null;
  result: MigrationResult | string | null;
  error: MigrationError | string | null;
  created_at: unknown;
  started_at: unknown;
  completed_at: unknown;
}

export const REQUEST_COLUMNS = 'id, user_id, connection_id, sql, status, progress, rows_done, rows_total, result, error, created_at, started_at, completed_at';

// bigint arrives as text from pg.
const count = (v: string | number | null): number | null => (v === null ? null : Number(v));

// jsonb arrives parsed from pg and PGlite alike; text is tolerated for safety.
const json = <T>(v: T | string | null): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

export function toRecord(row: RequestRow): MigrationRequestRecord {
  return {
    request_id: row.id,
    status: row.status,
    progress: row.progress,
    rows_done: count(row.rows_done),
    rows_total: count(row.rows_total),
    sql: row.sql,
    connection_id: row.connection_id,
    result: json(row.result),
    error: json(row.error),
    created_at: iso(row.created_at),
    started_at: isoOrNull(row.started_at),
    completed_at: isoOrNull(row.completed_at),
  };
}
