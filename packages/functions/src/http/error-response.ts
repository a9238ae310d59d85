import { AppError } from '@dbops/core/errors';
import { RequestValidationError } from '@dbops/core/errors';
import { errorFields, logger } from '../runtime/logger';
import { bare, failure, type HttpResult } from './responses';

/**
 * The one place a thrown error becomes a response:
 * - validation failures: 422 with the spec's bare `{detail: [...]}` body;
 * - INSUFFICIENT_CREDITS: 402 with the spec's bare `{detail: "..."}` body;
 * - any other {@link AppError}: its status and the envelope;
 * - anything else: logged (redacted) and answered as a 500 without internals.
 */
export function errorToResponse(error: unknown, requestId?: string): HttpResult {
  if (error instanceof RequestValidationError) return bare({ detail: error.issues }, 422);
  if (error instanceof AppError) {
    if (error.code === 'INSUFFICIENT_CREDITS') return bare({ detail: error.message }, 402, error.headers);
    return failure(error.status, error.toBody(), error.headers);
  }
  logger.error('unhandled error', { requestId, ...errorFields(error) });
  return failure(500, {
    code: 'INTERNAL_ERROR',
    message: `Internal error${requestId ? ` (request ${requestId})` : ''}; it has been logged.`,
  });
}
