import { AppError } from '../errors/app-error';

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
  | 'no_text';

/**
 * The error that refuses a whole upload batch because of one file: 413 PAYLOAD_TOO_LARGE for an
 * oversized file, 422 DOCUMENT_REJECTED otherwise, always naming the file in message and details.
 */
export function rejectDocument(filename: string, reason: RejectionReason, message: string, extra: Record<string, unknown> = {}): AppError {
  const code = reason === 'too_large' ? 'PAYLOAD_TOO_LARGE' : 'DOCUMENT_REJECTED';
  return new AppError(code, `${message}; nothing of this upload was stored`, { details: { filename, reason, ...extra } });
}
