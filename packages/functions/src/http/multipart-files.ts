import { AppError } from '@dbops/core/errors';
import { RequestValidationError } from '@dbops/core/errors';
import { bidiFilenameIssue, rejectDocument } from '@dbops/core/documents';
import { MAX_FILENAME_LENGTH } from '@dbops/core/documents';
import type { IncomingFile } from '@dbops/core/documents';
import Busboy from 'busboy';
import { bodyBytes, header, type ApiEvent } from './event';

/** Limits applied while reading the multipart body. */
export interface MultipartLimits {
  /** Form field that carries the files (repeated). */
  field: string;
  /** Largest file in bytes; a bigger one rejects the request naming it. */
  maxFileBytes: number;
  /** Most files; the first one past it rejects the request naming it. */
  maxFiles: number;
}

/** The last path component without control characters: browsers on Windows may send `C:\dir\a.md`. */
export function sanitizeFilename(raw: string): string {
  const base = raw.split(/[\\/]/).at(-1) ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

const malformed = (why: string): AppError => new AppError('BAD_REQUEST', `Malformed multipart body: ${why}`);

/**
 * The files of a `multipart/form-data` request body, parsed from the raw bytes (API Gateway
 * delivers it base64-encoded). Parts under other field names are ignored. Fails with 415 when
 * the body is not multipart, 400 when it is malformed, 413/422 naming the file that breaks a
 * limit, and the spec's validation error when no file was sent.
 */
export async function readMultipartFiles(event: ApiEvent, limits: MultipartLimits): Promise<IncomingFile[]> {
  const contentType = header(event, 'content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Upload files as multipart/form-data with one "${limits.field}" part per file`);
  }
  let parser: Busboy.Busboy;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles + 1, fields: 100, parts: limits.maxFiles + 101 },
    });
  } catch (error) {
    throw malformed(error instanceof Error ? error.message : 'unreadable Content-Type');
  }

  return new Promise<IncomingFile[]>((resolve, reject) => {
    const files: IncomingFile[] = [];
    // The part's place among the files parts (a file is pushed only once its bytes have ended).
    let fileParts = 0;
    let failure: Error | undefined;
    const fail = (e: Error): void => {
      failure ??= e;
    };
    parser.on('file', (name, stream, info) => {
      // A truncated body errors the open file stream too; the parser's own error reports it.
      stream.on('error', () => undefined);
      if (name !== limits.field || failure) {
        stream.resume();
        return;
      }
      const index = fileParts++;
      const filename = sanitizeFilename(info.filename ?? '');
      if (filename === '' || filename.length > MAX_FILENAME_LENGTH) {
        fail(rejectDocument(filename.slice(0, 80), 'invalid_filename', `Every "${limits.field}" part needs a filename of 1-${MAX_FILENAME_LENGTH} characters`));
        stream.resume();
        return;
      }
      const bidi = bidiFilenameIssue(filename, ['body', limits.field, index, 'filename']);
      if (bidi) {
        fail(new RequestValidationError([bidi]));
        stream.resume();
        return;
      }
      if (files.length >= limits.maxFiles) {
        fail(
          rejectDocument(filename, 'too_many_files', `${filename} is file ${limits.maxFiles + 1} of the batch; at most ${limits.maxFiles} files per upload`, {
            limit_files: limits.maxFiles,
          }),
        );
        stream.resume();
        return;
      }
      const parts: Buffer[] = [];
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('limit', () => {
        fail(
          rejectDocument(filename, 'too_large', `${filename} is larger than the ${Math.round(limits.maxFileBytes / 1048576)} MB limit per file`, {
            limit_bytes: limits.maxFileBytes,
          }),
        );
      });
      stream.on('end', () => {
        files.push({ filename, mediaType: info.mimeType, bytes: Buffer.concat(parts) });
      });
    });
    parser.on('field', (name) => {
      if (name === limits.field) fail(rejectDocument('', 'invalid_filename', `Every "${limits.field}" part must be a file with a filename, not a text field`));
    });
    parser.on('error', (e: unknown) => reject(failure ?? malformed(e instanceof Error ? e.message : 'unreadable body')));
    parser.on('close', () => {
      if (failure) return reject(failure);
      if (files.length === 0) {
        return reject(new RequestValidationError([{ loc: ['body', limits.field], msg: 'Field required', type: 'missing', input: null, ctx: {} }]));
      }
      resolve(files);
    });
    try {
      parser.end(bodyBytes(event));
    } catch (e) {
      reject(malformed(e instanceof Error ? e.message : 'unreadable body'));
    }
  });
}
