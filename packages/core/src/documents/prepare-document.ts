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

/** A file that passed every check, with its text chunked and ready to embed. */
export interface PreparedDocument {
  filename: string;
  kind: DocumentKind;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  chunks: DocumentChunk[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function decodeText(file: IncomingFile): string {
  if (file.bytes.includes(0)) throw rejectDocument(file.filename, 'not_utf8', `${file.filename} is binary, not UTF-8 text`);
  try {
    return utf8.decode(file.bytes);
  } catch {
    throw rejectDocument(file.filename, 'not_utf8', `${file.filename} is not valid UTF-8 text`);
  }
}

/** Checks, extracts and chunks one file; throws the rejection that names it. */
export async function prepareDocument(file: IncomingFile): Promise<PreparedDocument> {
  const { filename, bytes } = file;
  if (bytes.length === 0) throw rejectDocument(filename, 'empty', `${filename} is empty`);
  if (bytes.length > MAX_FILE_BYTES) {
    throw rejectDocument(filename, 'too_large', `${filename} is larger than the 10 MB limit per file`, { limit_bytes: MAX_FILE_BYTES });
  }
  const kind = detectDocumentKind(filename, file.mediaType, bytes);
  const text = kind === 'pdf' ? await extractPdfText(filename, bytes) : decodeText(file);
  if (text.trim() === '') {
    throw kind === 'pdf'
      ? rejectDocument(filename, 'no_text', `${filename} has no extractable text (a scanned PDF needs OCR first)`)
      : rejectDocument(filename, 'empty', `${filename} contains only whitespace`);
  }
  const chunks = kind === 'markdown' ? chunkMarkdown(text) : kind === 'sql' ? await chunkSql(text) : chunkPlainText(text);
  if (chunks.length === 0) throw rejectDocument(filename, 'no_text', `${filename} has no text to index`);
  return {
    filename,
    kind,
    contentType: CONTENT_TYPES[kind],
    sizeBytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    chunks,
  };
}
