import { AppError } from '../errors/app-error';
import type { GuardrailLevel } from './guardrail';
import { guardrailViolation } from './check-guardrail';

/** The fields of a PostgreSQL error (pg's DatabaseError) that callers see. */
interface PgErrorLike {
  code?: string;
  message?: string;
  position?: string;
  detail?: string;
  hint?: string;
}

const isPgError = (e: unknown): e is PgErrorLike & Error =>
  e instanceof Error && typeof (e as PgErrorLike).code === 'string' && /^[0-9A-Z]{5}$/.test((e as PgErrorLike).code!);

/** SQL_ERROR (400) with SQLSTATE, message and a 1-based character position in the request (or null). */
export function sqlError(sqlstate: string | null, message: string, position: number | null, extra: { detail?: string; hint?: string } = {}): AppError {
  return new AppError('SQL_ERROR', message, {
    details: {
      sqlstate,
      message,
      position,
      ...(extra.detail ? { detail: extra.detail } : {}),
      ...(extra.hint ? { hint: extra.hint } : {}),
    },
  });
}

/** What was applied instead of `timeout_seconds` when the gateway's window was shorter. */
export interface AppliedLimit {
  seconds: number;
  /** Why, when the request asked for more than the gateway allows at all. */
  notice: string | null;
}

export const timeoutError = (timeoutSeconds: number, applied: AppliedLimit | null = null): AppError =>
  applied
    ? new AppError(
        'TIMEOUT',
        `The statement ran past ${applied.seconds} s, the most this request could give it (timeout_seconds ${timeoutSeconds} was capped to fit the API gateway's window), and was cancelled and rolled back on the server.`,
        {
          details: {
            timeout_seconds: timeoutSeconds,
            applied_timeout_seconds: applied.seconds,
            capped: true,
            ...(applied.notice ? { reason: applied.notice } : {}),
          },
        },
      )
    : new AppError('TIMEOUT', `The statement exceeded timeout_seconds (${timeoutSeconds} s) and was cancelled and rolled back on the server.`, {
        details: { timeout_seconds: timeoutSeconds },
      });

/**
 * Turns what went wrong while running a statement into the answer:
 * - the watchdog fired, or the server's statement_timeout cancelled it (57014): TIMEOUT;
 * - a write refused by the READ ONLY transaction of `strict` (25006): GUARDRAIL_VIOLATION, the
 *   second line of defence after the classifier;
 * - any other server error: SQL_ERROR with SQLSTATE, message and position (mapped to the request);
 * - the connection dropping: CONNECTION_FAILED.
 */
export function mapExecutionError(
  error: unknown,
  ctx: { timedOut: boolean; timeoutSeconds: number; applied?: AppliedLimit | null; statementOffset: number; strictLevel: GuardrailLevel | null },
): AppError {
  if (error instanceof AppError) return error;
  if (ctx.timedOut) return timeoutError(ctx.timeoutSeconds, ctx.applied);
  if (isPgError(error)) {
    if (error.code === '57014' && /statement timeout/i.test(error.message)) return timeoutError(ctx.timeoutSeconds, ctx.applied);
    if (error.code === '25006' && ctx.strictLevel)
      return guardrailViolation('dml', `a write refused by the read-only transaction (${error.message})`, ctx.strictLevel);
    const pos = error.position ? Number(error.position) : NaN;
    return sqlError(error.code!, error.message, Number.isFinite(pos) ? ctx.statementOffset + pos : null, { detail: error.detail, hint: error.hint });
  }
  return new AppError('CONNECTION_FAILED', 'The connection to the database was lost while the statement ran.', { details: { reason: 'connection_lost' } });
}
