import { ApiError, toApiError } from './client';
import type { UploadSlot } from './types';

/**
 * Sends one file to its upload slot, as the slot says: the local runtime takes a `PUT` of the raw
 * bytes, S3 a presigned `POST` form (every field first, then `file`). No credential goes with it:
 * the slot itself is the permission, and it expires.
 */
export async function sendToSlot(slot: UploadSlot, file: Blob): Promise<void> {
  let res: Response;
  try {
    if (slot.method === 'PUT') {
      res = await fetch(slot.url, { method: 'PUT', headers: slot.headers, body: file });
    } else {
      const form = new FormData();
      for (const [name, value] of Object.entries(slot.fields)) form.append(name, value);
      form.append('file', file);
      res = await fetch(slot.url, { method: 'POST', body: form });
    }
  } catch {
    throw new ApiError(0, 'NETWORK', `${slot.filename} could not be sent to storage.`);
  }
  if (res.ok) return;
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // S3 answers XML: its <Message> is the reason.
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
    body = { message: message ? `${slot.filename}: ${message}` : `${slot.filename} was refused by storage (HTTP ${res.status})` };
  }
  throw toApiError(res.status, body);
}
