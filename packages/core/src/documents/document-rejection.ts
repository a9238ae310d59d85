import { AppError } from '../errors/app-error';
import type { ErrorCode } from '../errors/error-codes';

/** Why a file of an upload batch was refused; returned as `error.details.reason`. */
export type RejectionReason =
  | 'unsupported_type'
  | 'empty'
  | 'too_large'
  | 'too_many_files'
  | 'duplicate_filename'
  | 'invalid_filename'
  | 'not_utf8'
  | 'unreadable_pdf'
  | 'encrypted_pdf'
  | 'no_text'
  // Hostile documents (docs/documents.md, "Bounds on one document").
  | 'decoded_too_large'
  | 'extraction_timeout'
  | 'extraction_memory'
  // Upload slots (docs/documents.md, "Upload slots").
  | 'not_uploaded'
  | 'size_mismatch'
  | 'slot_expired'
  | 'slot_used'
  | 'pending_quota';

const CODE_OF: Partial<Record<RejectionReason, ErrorCode>> = {
  too_large: 'PAYLOAD_TOO_LARGE',
  slot_expired: 'FORBIDDEN',
  slot_used: 'CONFLICT',
  // The spec has no quota code; a user's pending bytes are "too many bytes", as an oversized file is.
  pending_quota: 'PAYLOAD_TOO_LARGE',
};

/**
 * The error that refuses a whole upload batch because of one file: 413 PAYLOAD_TOO_LARGE for an
 * oversized file, 403 for an expired slot, 409 for a slot used twice, 422 DOCUMENT_REJECTED
 * otherwise, always naming the file in message and details.
 */
export function rejectDocument(filename: string, reason: RejectionReason, message: string, extra: Record<string, unknown> = {}): AppError {
  const code = CODE_OF[reason] ?? 'DOCUMENT_REJECTED';
  return new AppError(code, `${message}; nothing of this upload was stored`, { details: { filename, reason, ...extra } });
}
