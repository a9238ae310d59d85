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
 * The kind of an uploaded file. The extension decides (browsers and curl send
 * application/octet-stream for .md and .sql); the part's media type is used only when the name
 * has no known extension. The bytes must agree: a PDF starts with `%PDF-`.
 */
export function detectDocumentKind(filename: string, mediaType: string | undefined, bytes: Uint8Array): DocumentKind {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  const type = mediaType?.split(';')[0]?.trim().toLowerCase();
  const kind = (ext ? BY_EXTENSION[ext] : undefined) ?? (type ? BY_MEDIA_TYPE[type] : undefined);
  if (!kind) {
    throw rejectDocument(filename, 'unsupported_type', `${filename} is not a supported type (PDF, Markdown, plain text or SQL: .pdf, .md, .txt, .sql)`, {
      content_type: type ?? null,
    });
  }
  if (kind === 'pdf' && Buffer.from(bytes.subarray(0, 1024)).indexOf('%PDF-') < 0) {
    throw rejectDocument(filename, 'unreadable_pdf', `${filename} is named as a PDF but is not one`);
  }
  return kind;
}
