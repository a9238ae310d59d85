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
export async function uploadDocuments(
  t: TestRuntime,
  auth: { jwt?: string; apiKey?: string },
  connectionId: string,
  files: readonly UploadFile[],
): Promise<ApiResponse> {
  return t.request('POST', `/connections/${connectionId}/documents/upload`, { ...auth, body: uploadForm(files) });
}

/** One slot of an upload batch, as the API answers it. */
export interface UploadSlot {
  filename: string;
  method: 'PUT' | 'POST';
  url: string;
  headers: Record<string, string>;
  fields: Record<string, string>;
}

const bytesOf = (content: string | Uint8Array): Uint8Array => (typeof content === 'string' ? new TextEncoder().encode(content) : content);

/** POST /connections/{id}/documents/batches for `files` (size and type from their content). */
export async function openBatch(
  t: TestRuntime,
  auth: { jwt?: string; apiKey?: string },
  connectionId: string,
  files: readonly UploadFile[],
): Promise<ApiResponse> {
  return t.request('POST', `/connections/${connectionId}/documents/batches`, {
    ...auth,
    body: { files: files.map((f) => ({ filename: f.name, size_bytes: bytesOf(f.content).length, ...(f.type ? { content_type: f.type } : {}) })) },
  });
}

/** Sends a file to its slot as a client would (PUT with the slot's headers). */
export async function putToSlot(slot: UploadSlot, content: string | Uint8Array, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(slot.url, { method: slot.method, headers: { ...slot.headers, ...headers }, body: bytesOf(content) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Sends a file to its slot as the console does, whatever the storage: a PUT of the bytes (the
 * local runtime) or S3's presigned POST form (every field, then `file`). `fields` replaces or adds
 * form fields (tests that tamper with a slot). Answers S3's or the endpoint's status and text.
 */
export async function sendToSlot(
  slot: UploadSlot,
  content: string | Uint8Array,
  o: { type?: string; fields?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  let res: Response;
  if (slot.method === 'PUT') {
    res = await fetch(slot.url, { method: 'PUT', headers: { ...slot.headers, ...o.headers }, body: bytesOf(content) });
  } else {
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...slot.fields, ...o.fields })) form.append(name, value);
    form.append('file', new Blob([bytesOf(content)], { type: o.type ?? slot.fields['Content-Type'] ?? 'application/octet-stream' }), 'upload');
    res = await fetch(slot.url, { method: 'POST', headers: o.headers ?? {}, body: form });
  }
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** Polls a batch until it is completed or failed. */
export async function waitForBatch(
  t: TestRuntime,
  auth: { jwt?: string; apiKey?: string },
  connectionId: string,
  batchId: string,
  timeoutMs = 120_000,
): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request('GET', `/connections/${connectionId}/documents/batches/${batchId}`, auth);
    if (res.status !== 200) throw new Error(`batch poll: ${res.status} ${res.text}`);
    if (res.body.data.status === 'completed' || res.body.data.status === 'failed') return res.body.data;
    if (Date.now() > until) throw new Error(`batch ${batchId} still ${res.body.data.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens a batch, sends every file to its slot (PUT or S3's POST form) and confirms it; answers the confirmation. */
export async function uploadThroughSlots(
  t: TestRuntime,
  auth: { jwt?: string; apiKey?: string },
  connectionId: string,
  files: readonly UploadFile[],
): Promise<ApiResponse> {
  const opened = await openBatch(t, auth, connectionId, files);
  if (opened.status !== 201) throw new Error(`open batch: ${opened.status} ${opened.text}`);
  const slots = opened.body.data.slots as UploadSlot[];
  for (const [i, f] of files.entries()) {
    const sent = await sendToSlot(slots[i]!, f.content);
    if (sent.status < 200 || sent.status > 299) throw new Error(`upload ${f.name}: ${sent.status} ${sent.text}`);
  }
  return t.request('POST', `/connections/${connectionId}/documents/batches/${opened.body.data.batch_id}/confirm`, auth);
}
