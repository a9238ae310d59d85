import { createHash } from 'node:crypto';
import type { DocumentChunk } from './chunk';
import { chunkSql } from './chunk-sql';
import { chunkMarkdown, chunkPlainText } from './chunk-text';
import { rejectDocument } from './document-rejection';
import { CONTENT_TYPES, detectDocumentKind, type DocumentKind } from './document-type';
import { extractPdfText } from './extract-pdf';
import { MAX_FILE_BYTES } from './limits';

/** One file as received: a sanitized name, the part's media type and its bytes. */
export interface IncomingFile {
  filename: string;
  mediaType?: string;
  bytes: Uint8Array;
}

/** What is known of a file once it passed the checks that need no extraction. */
export interface CheckedFile {
  filename: string;
  kind: DocumentKind;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

/** A file that passed every check, with its text chunked and ready to embed. */
export interface PreparedDocument extends CheckedFile {
  chunks: DocumentChunk[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The text of a text, Markdown or SQL file; rejects binary and invalid UTF-8. */
export function decodeText(filename: string, bytes: Uint8Array): string {
  if (bytes.includes(0)) throw rejectDocument(filename, 'not_utf8', `${filename} is binary, not UTF-8 text`);
  try {
    return utf8.decode(bytes);
  } catch {
    throw rejectDocument(filename, 'not_utf8', `${filename} is not valid UTF-8 text`);
  }
}

/** Size, emptiness and type (by name, then by content); throws the rejection that names the file. */
export function checkFile(file: IncomingFile): CheckedFile {
  const { filename, bytes } = file;
  if (bytes.length === 0) throw rejectDocument(filename, 'empty', `${filename} is empty`);
  if (bytes.length > MAX_FILE_BYTES) {
    throw rejectDocument(filename, 'too_large', `${filename} is larger than the 10 MB limit per file`, { limit_bytes: MAX_FILE_BYTES });
  }
  const kind = detectDocumentKind(filename, file.mediaType, bytes);
  return { filename, kind, contentType: CONTENT_TYPES[kind], sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Rejects a file whose extracted text is blank. */
export function requireText(file: CheckedFile, text: string): void {
  if (text.trim() === '') {
    throw file.kind === 'pdf'
      ? rejectDocument(file.filename, 'no_text', `${file.filename} has no extractable text (a scanned PDF needs OCR first)`)
      : rejectDocument(file.filename, 'empty', `${file.filename} contains only whitespace`);
  }
}

/** The chunks of a file's text, by its kind. */
export const chunkByKind = (kind: DocumentKind, text: string): Promise<DocumentChunk[]> | DocumentChunk[] =>
  kind === 'markdown' ? chunkMarkdown(text) : kind === 'sql' ? chunkSql(text) : chunkPlainText(text);

/** Checks, extracts and chunks one file; throws the rejection that names it. */
export async function prepareDocument(file: IncomingFile): Promise<PreparedDocument> {
  const checked = checkFile(file);
  const text = checked.kind === 'pdf' ? await extractPdfText(file.filename, file.bytes) : decodeText(file.filename, file.bytes);
  requireText(checked, text);
  const chunks = await chunkByKind(checked.kind, text);
  if (chunks.length === 0) throw rejectDocument(file.filename, 'no_text', `${file.filename} has no text to index`);
  return { ...checked, chunks };
}
