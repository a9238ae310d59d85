import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ApiResponse, TestRuntime } from './test-runtime';

/** One file to upload: its name, content and optionally the part's media type. */
export interface UploadFile {
  name: string;
  content: string | Uint8Array;
  type?: string;
}

/** A real PDF with one page per entry; each line is drawn as text, '' leaves a paragraph gap. */
export async function makePdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage();
    let y = 750;
    for (const line of lines) {
      if (line !== '') page.drawText(line, { x: 50, y, size: 11, font });
      y -= line === '' ? 34 : 14;
    }
  }
  return doc.save();
}

/** A multipart form with one `files` part per file, as a browser or curl would send it. */
export function uploadForm(files: readonly UploadFile[]): FormData {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([f.content], { type: f.type ?? 'application/octet-stream' }), f.name);
  return form;
}

/** POST /connections/{id}/documents/upload with `files`. */
export async function uploadDocuments(t: TestRuntime, auth: { jwt?: string; apiKey?: string }, connectionId: string, files: readonly UploadFile[]): Promise<ApiResponse> {
  return t.request('POST', `/connections/${connectionId}/documents/upload`, { ...auth, body: uploadForm(files) });
}
