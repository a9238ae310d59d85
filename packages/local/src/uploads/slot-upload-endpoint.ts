import { ContentSniffer } from '@dbops/core/documents';
import { rejectDocument } from '@dbops/core/documents';
import { claimSlot, type ClaimedSlot, completeSlot, releaseSlot } from '@dbops/core/documents';
import { AppError, isAppError } from '@dbops/core/errors';
import type { Store } from '@dbops/core/store';
import type { Clock } from '@dbops/core/util';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { discardBody } from '../gateway/discard-body';
import { LOCAL_UPLOAD_PREFIX, type LocalUploadStorage } from './local-upload-storage';

/** Bytes of a refused upload read and discarded before answering, so the client can read the answer. */
const DISCARD_BOUND = 32 * 1024 * 1024;

function answer(res: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

async function fail(req: IncomingMessage, res: ServerResponse, error: AppError): Promise<void> {
  const drained = await discardBody(req, DISCARD_BOUND);
  answer(res, error.status, { success: false, data: null, error: error.toBody() }, !drained);
  if (!drained) res.once('finish', () => req.destroy());
}

/**
 * Streams the body into `file`, checking size and content as it arrives. On a refusal it stops
 * listening and leaves the rest of the body unread (not destroyed), for the caller to discard.
 */
function streamInto(req: IncomingMessage, handle: FileHandle, slot: ClaimedSlot): Promise<number> {
  const sniffer = new ContentSniffer(slot.filename, slot.kind);
  let size = 0;
  return new Promise((resolve, reject) => {
    const stop = (error: unknown): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', stop);
      req.pause();
      reject(error);
    };
    const onData = (piece: Buffer): void => {
      size += piece.length;
      try {
        if (size > slot.sizeBytes) {
          throw rejectDocument(slot.filename, 'too_large', `${slot.filename} is more than the ${slot.sizeBytes} bytes its slot was made for`, {
            limit_bytes: slot.sizeBytes,
          });
        }
        sniffer.push(piece);
      } catch (error) {
        return stop(error);
      }
      req.pause();
      handle.write(piece).then(() => req.resume(), stop);
    };
    const onEnd = (): void => {
      try {
        sniffer.end();
        if (size !== slot.sizeBytes)
          throw rejectDocument(slot.filename, 'size_mismatch', `${slot.filename} is ${size} bytes; its slot was made for ${slot.sizeBytes}`);
      } catch (error) {
        return stop(error);
      }
      resolve(size);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', stop);
  });
}

/** Receives the slot's file: written to `<file>.part`, renamed into place once complete. */
async function receive(req: IncomingMessage, storage: LocalUploadStorage, slot: ClaimedSlot): Promise<number> {
  const file = await storage.prepare(slot.storageKey);
  const partial = `${file}.part`;
  const handle = await open(partial, 'w', 0o600);
  try {
    const size = await streamInto(req, handle, slot);
    await handle.close();
    await rename(partial, file);
    return size;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * The local runtime's stand-in for an S3 presigned upload: `PUT /local-uploads/<token>` with the
 * slot's Content-Type and exactly its size. The limits hold where the bytes land: the slot must
 * be unused and unexpired, the body no bigger than the slot (checked while it streams), and the
 * content must be of the slot's type (PDF signature, UTF-8 text without NUL). A refused upload
 * gives the slot back and nothing stays on disk.
 */
export function createSlotUploadEndpoint(deps: { store: Store; clock: Clock; storage: LocalUploadStorage }) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const token = new URL(req.url ?? '/', 'http://localhost').pathname.slice(LOCAL_UPLOAD_PREFIX.length);
    if (req.method !== 'PUT') {
      res.setHeader('allow', 'PUT');
      return fail(req, res, new AppError('METHOD_NOT_ALLOWED', 'Upload slots take PUT'));
    }
    const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    let claimed = false;
    try {
      const slot = await claimSlot(deps, token, { contentType: req.headers['content-type'], contentLength: declared });
      claimed = true;
      const size = await receive(req, deps.storage, slot);
      await completeSlot(deps.store, token, size);
      answer(res, 200, { success: true, error: null, data: { filename: slot.filename, size_bytes: size, uploaded: true } });
    } catch (error) {
      if (claimed) await releaseSlot(deps.store, token).catch(() => undefined);
      if (isAppError(error)) return fail(req, res, error);
      throw error;
    }
  };
}
