import Busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ObjectStore, StoredObject } from './object-store';
import { checkPostPolicy } from './post-policy';
import { S3Error } from './s3-error';
import type { S3Credentials } from './sigv4';

/** The form's fields before the file: S3 caps them at 20 KB (the policy is the largest). */
const MAX_FIELD_BYTES = 20 * 1024;
const MAX_FIELDS = 100;
/** S3's longest key, in UTF-8 bytes. */
const MAX_KEY_BYTES = 1024;

export interface PostObjectContext {
  bucket: string;
  credentials: S3Credentials;
  region: string;
  now: Date;
  store: ObjectStore;
}

export interface PostedObject {
  object: StoredObject;
  /** `success_action_status` (200, 201 or 204; 204 when absent or anything else, as S3). */
  status: 200 | 201 | 204;
}

const successStatus = (value: string | undefined): PostedObject['status'] => (value === '200' ? 200 : value === '201' ? 201 : 204);

/** The key a form names, checked as S3 checks it before storing. */
function keyOf(fields: ReadonlyMap<string, string>): string {
  const key = fields.get('key');
  if (key === undefined)
    throw new S3Error(400, 'InvalidArgument', "A POST to a bucket needs a 'key' field before the file.", { ArgumentName: 'key', ArgumentValue: '' });
  if (key === '') throw new S3Error(400, 'InvalidArgument', 'The key must not be empty.', { ArgumentName: 'key', ArgumentValue: '' });
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error(400, 'KeyTooLongError', 'The key is longer than 1,024 bytes.');
  if (fields.has('success_action_redirect') || fields.has('redirect'))
    throw new S3Error(501, 'NotImplemented', 'success_action_redirect is not served by the local S3.', { Header: 'success_action_redirect' });
  return key;
}

/**
 * POST Object (browser-based upload): reads the multipart form, and once the `file` part begins
 * (every field before it is known, as S3 requires) checks the policy, then streams the file into
 * the bucket within the policy's size range. Fields after the file are ignored, as in S3. On a
 * refusal the request body is left unpiped for the caller to discard before answering.
 */
export function receivePostObject(req: IncomingMessage, ctx: PostObjectContext): Promise<PostedObject> {
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? ''))
    return Promise.reject(
      new S3Error(412, 'PreconditionFailed', 'A POST to a bucket must be multipart/form-data.', {
        Condition: 'Bucket POST must be of the enclosure-type multipart/form-data',
      }),
    );
  let parser: Busboy.Busboy;
  try {
    parser = Busboy({ headers: req.headers, limits: { fieldSize: MAX_FIELD_BYTES, fields: MAX_FIELDS, files: 1 } });
  } catch {
    return Promise.reject(new S3Error(400, 'MalformedPOSTRequest', 'The body is not well-formed multipart/form-data.'));
  }
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    let file: Readable | undefined;
    let stored: Promise<StoredObject> | undefined;
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      file?.resume();
      reject(error);
    };
    const begin = (stream: Readable): void => {
      file = stream;
      try {
        const limits = checkPostPolicy(fields, ctx.bucket, ctx.credentials, ctx.region, ctx.now);
        const key = keyOf(fields);
        stored = ctx.store.put(ctx.bucket, key, stream, { contentType: fields.get('content-type') ?? 'binary/octet-stream', ...limits });
        stored.catch(fail);
      } catch (error) {
        fail(error);
      }
    };
    parser.on('field', (name, value, info) => {
      if (file) return;
      if (info.valueTruncated) return fail(new S3Error(400, 'MaxPostPreDataLengthExceeded', 'A field before the file is larger than 20 KB.'));
      const n = name.toLowerCase();
      // A `file` part without a filename arrives as a field: its text is the file.
      if (n === 'file') return begin(Readable.from([Buffer.from(value)]));
      fields.set(n, value);
    });
    parser.on('file', (name, stream) => {
      if (file || name.toLowerCase() !== 'file') return void stream.resume();
      begin(stream);
    });
    parser.on('close', () => {
      if (!stored) return fail(new S3Error(400, 'InvalidArgument', 'A POST to a bucket takes exactly one file.', { ArgumentName: 'file', ArgumentValue: 0 }));
      stored.then((object) => {
        if (settled) return;
        settled = true;
        resolve({ object, status: successStatus(fields.get('success_action_status')) });
      }, fail);
    });
    parser.on('error', () => fail(new S3Error(400, 'MalformedPOSTRequest', 'The body is not well-formed multipart/form-data.')));
    // A client gone mid-upload: the partial file is dropped, nothing is stored.
    req.once('close', () => {
      if (!req.complete) {
        file?.destroy(new Error('the client went away'));
        fail(new S3Error(400, 'IncompleteBody', 'The request body ended early.'));
      }
    });
    req.pipe(parser);
  });
}
