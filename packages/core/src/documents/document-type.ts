import { rejectDocument } from './document-rejection';

/** The file kinds the service reads. */
export type DocumentKind = 'pdf' | 'markdown' | 'text' | 'sql';

/** The content type recorded and listed for each kind. */
export const CONTENT_TYPES: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  markdown: 'text/markdown',
  text: 'text/plain',
  sql: 'application/sql',
};

const BY_EXTENSION: Record<string, DocumentKind> = {
  pdf: 'pdf',
  md: 'markdown',
  markdown: 'markdown',
  txt: 'text',
  text: 'text',
  sql: 'sql',
  psql: 'sql',
};

const BY_MEDIA_TYPE: Record<string, DocumentKind> = {
  'application/pdf': 'pdf',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'application/sql': 'sql',
  'text/x-sql': 'sql',
};

/**
 * The kind a file's name says (the extension decides, because browsers and curl send
 * application/octet-stream for .md and .sql; the media type counts only when the name has no
 * known extension). Rejects an unsupported type naming the file.
 */
export function kindByName(filename: string, mediaType: string | undefined): DocumentKind {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  const type = mediaType?.split(';')[0]?.trim().toLowerCase();
  const kind = (ext ? BY_EXTENSION[ext] : undefined) ?? (type ? BY_MEDIA_TYPE[type] : undefined);
  if (!kind) {
    throw rejectDocument(filename, 'unsupported_type', `${filename} is not a supported type (PDF, Markdown, plain text or SQL: .pdf, .md, .txt, .sql)`, {
      content_type: type ?? null,
    });
  }
  return kind;
}

/** Rejects bytes that are not of `kind` by their first bytes: a PDF starts with `%PDF-` (within its first KB). */
export function checkLeadingBytes(filename: string, kind: DocumentKind, head: Uint8Array): void {
  if (kind === 'pdf' && Buffer.from(head.subarray(0, 1024)).indexOf('%PDF-') < 0) {
    throw rejectDocument(filename, 'unreadable_pdf', `${filename} is named as a PDF but is not one`);
  }
}

/**
 * The kind of an uploaded file, by name (see {@link kindByName}); the bytes must agree.
 */
export function detectDocumentKind(filename: string, mediaType: string | undefined, bytes: Uint8Array): DocumentKind {
  const kind = kindByName(filename, mediaType);
  checkLeadingBytes(filename, kind, bytes);
  return kind;
}
