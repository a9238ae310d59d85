import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { discardBody } from '../../gateway/discard-body';
import { type CorsRule, corsHeaders, preflight } from './bucket-cors';
import { listObjectsV2 } from './list-objects';
import { ObjectStore, type StoredObject } from './object-store';
import { receivePostObject } from './post-object';
import { S3Error } from './s3-error';
import { type S3Credentials, sha256Hex, verifyHeaderSignature } from './sigv4';
import { elementTexts, xmlDocument } from './xml';

/** A bucket's lifecycle rule: objects under `prefix` are deleted once older than `expireDays`. */
export interface LifecycleRule {
  prefix: string;
  expireDays: number;
}

export interface BucketOptions {
  cors?: readonly CorsRule[];
  lifecycle?: readonly LifecycleRule[];
}

export interface LocalS3Options {
  /** Where objects are kept (under DBOPS_HOME). */
  dir: string;
  /** The one key requests must be signed with. */
  credentials: S3Credentials;
  /** Default `us-east-1`. */
  region?: string;
  /** The server's clock (tests move it to expire a slot). Default the system's. */
  now?: () => Date;
  /** Where failures of the stand-in itself (not refusals) are told. Default stderr. */
  log?(message: string): void;
}

/** Bytes of a refused request body read and discarded before answering, so the client reads the answer. */
const DISCARD_BOUND = 16 * 1024 * 1024;
/** Most keys one DeleteObjects request may name, as in S3. */
const MAX_DELETE_KEYS = 1000;
/** Largest signed request body the stand-in reads (DeleteObjects' XML); uploads go by POST form. */
const MAX_SIGNED_BODY = 2 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How often lifecycle rules are applied (S3 applies them about daily; an hour keeps a local run tidy). */
const LIFECYCLE_EVERY_MS = 60 * 60 * 1000;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_SIGNED_BODY) throw new S3Error(400, 'MaxMessageLengthExceeded', 'The request body is larger than the local S3 reads.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const headersOf = (o: StoredObject): Record<string, string> => ({
  'content-type': o.contentType,
  'content-length': String(o.size),
  etag: o.etag,
  'last-modified': o.lastModified.toUTCString(),
  'accept-ranges': 'bytes',
});

/**
 * A local S3 for the cloud shape: path-style buckets (`<origin>/<bucket>/<key>`) holding objects
 * on disk, served to the functions' own S3 adapter through the AWS SDK and to browsers through
 * presigned POST forms. It enforces what S3 does in this flow: SigV4 on every SDK call (the one
 * key it is given, the region, a 15-minute clock skew, the payload hash), the presigned POST's
 * signature and policy (post-policy.ts), and the bucket's CORS rules on every answer. Served:
 * POST Object, HeadObject, GetObject, DeleteObject, DeleteObjects and ListObjectsV2; anything
 * else answers NotImplemented. Errors are S3's XML documents with S3's codes.
 */
export class LocalS3 {
  readonly store: ObjectStore;
  readonly region: string;
  readonly #credentials: S3Credentials;
  readonly #now: () => Date;
  readonly #log: (message: string) => void;
  readonly #buckets = new Map<string, BucketOptions>();
  readonly #server: Server;
  #lifecycle: NodeJS.Timeout | undefined;
  origin = '';

  constructor(options: LocalS3Options) {
    this.store = new ObjectStore(options.dir);
    this.region = options.region ?? 'us-east-1';
    this.#credentials = options.credentials;
    this.#now = options.now ?? (() => new Date());
    this.#log = options.log ?? ((m) => process.stderr.write(`${m}\n`));
    this.#server = createServer((req, res) => void this.#serve(req, res));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    this.#lifecycle = setInterval(
      () => void this.applyLifecycle().catch((e: unknown) => this.#log(`local S3 lifecycle: ${(e as Error).message}`)),
      LIFECYCLE_EVERY_MS,
    );
    this.#lifecycle.unref();
  }

  /** Creates (or re-opens, objects kept) a bucket with its CORS and lifecycle rules. */
  async createBucket(name: string, options: BucketOptions = {}): Promise<void> {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name)) throw new Error(`invalid bucket name: ${name}`);
    await this.store.createBucket(name);
    this.#buckets.set(name, options);
    await this.applyLifecycle();
  }

  /** Deletes the objects the buckets' lifecycle rules have expired; answers how many. */
  async applyLifecycle(): Promise<number> {
    const now = this.#now().getTime();
    let deleted = 0;
    for (const [bucket, options] of this.#buckets)
      for (const rule of options.lifecycle ?? [])
        for (const o of await this.store.list(bucket))
          if (o.key.startsWith(rule.prefix) && now - o.lastModified.getTime() >= rule.expireDays * DAY_MS) {
            await this.store.delete(bucket, o.key);
            deleted += 1;
          }
    return deleted;
  }

  async close(): Promise<void> {
    clearInterval(this.#lifecycle);
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase();
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const rawPath = q < 0 ? raw : raw.slice(0, q);
    const rawQuery = q < 0 ? '' : raw.slice(q + 1);
    const [bucket = '', ...rest] = rawPath.slice(1).split('/');
    let key: string;
    try {
      key = decodeURIComponent(rest.join('/'));
    } catch {
      key = '';
    }
    const options = this.#buckets.get(bucket);
    const cors = options ? corsHeaders(options.cors ?? [], req) : {};
    res.setHeader('x-amz-request-id', requestId);
    // The server's own time: the SDK corrects its clock from it after a RequestTimeTooSkewed.
    res.setHeader('date', this.#now().toUTCString());
    for (const [h, v] of Object.entries(cors)) res.setHeader(h, v);
    try {
      if (!options) throw new S3Error(404, 'NoSuchBucket', 'The bucket does not exist.', { BucketName: bucket });
      const query = new URLSearchParams(rawQuery);
      if (req.method === 'OPTIONS') {
        res.writeHead(200, preflight(options.cors ?? [], req)).end();
        return;
      }
      if (req.method === 'POST' && key === '' && !query.has('delete')) return await this.#postObject(req, res, bucket);
      const { payloadHash } = verifyHeaderSignature(
        { method: req.method ?? 'GET', rawPath, rawQuery, headers: req.headers },
        this.#credentials,
        this.region,
        this.#now(),
      );
      const body = await readBody(req);
      if (payloadHash !== 'UNSIGNED-PAYLOAD' && sha256Hex(body) !== payloadHash)
        throw new S3Error(400, 'XAmzContentSHA256Mismatch', "The body's SHA-256 is not the x-amz-content-sha256 that was signed.");
      await this.#operation(req, res, bucket, key, query, body);
    } catch (error) {
      await this.#fail(req, res, error, rawPath, requestId);
    }
  }

  async #operation(req: IncomingMessage, res: ServerResponse, bucket: string, key: string, query: URLSearchParams, body: Buffer): Promise<void> {
    const op = `${req.method} ${key === '' ? 'bucket' : 'object'}`;
    if (op === 'GET bucket' && query.get('list-type') === '2') {
      return this.#xml(res, 200, listObjectsV2(bucket, await this.store.list(bucket), query));
    }
    if (op === 'POST bucket' && query.has('delete')) return this.#deleteObjects(req, res, bucket, body);
    if (op === 'HEAD object' || op === 'GET object') {
      const found = await this.store.read(bucket, key);
      if (!found) {
        // HEAD answers have no body: the SDK reads the status alone (NotFound).
        if (req.method === 'HEAD') return void res.writeHead(404).end();
        throw new S3Error(404, 'NoSuchKey', 'No object has this key.', { Key: key });
      }
      res.writeHead(200, headersOf(found.object));
      if (req.method === 'HEAD') {
        found.body.destroy();
        return void res.end();
      }
      found.body.pipe(res);
      return;
    }
    if (op === 'DELETE object') {
      await this.store.delete(bucket, key);
      return void res.writeHead(204).end();
    }
    throw new S3Error(501, 'NotImplemented', `${req.method} on this resource is not served by the local S3.`);
  }

  async #deleteObjects(req: IncomingMessage, res: ServerResponse, bucket: string, body: Buffer): Promise<void> {
    // S3 wants the body's integrity stated for a multi-object delete (the SDK sends a checksum).
    if (!req.headers['content-md5'] && !Object.keys(req.headers).some((h) => h.startsWith('x-amz-checksum-')))
      throw new S3Error(400, 'InvalidRequest', 'DeleteObjects needs a Content-MD5 or x-amz-checksum-* header.');
    const xml = body.toString('utf8');
    if (!/<Delete[\s>]/.test(xml)) throw new S3Error(400, 'MalformedXML', 'The body is not a Delete document.');
    const keys = elementTexts(xml, 'Key');
    if (keys.length === 0 || keys.length > MAX_DELETE_KEYS) throw new S3Error(400, 'MalformedXML', `A Delete document names 1 to ${MAX_DELETE_KEYS} keys.`);
    for (const k of keys) await this.store.delete(bucket, k);
    const quiet = elementTexts(xml, 'Quiet')[0]?.trim().toLowerCase() === 'true';
    this.#xml(res, 200, xmlDocument('DeleteResult', { Deleted: quiet ? [] : keys.map((k) => ({ Key: k })) }));
  }

  async #postObject(req: IncomingMessage, res: ServerResponse, bucket: string): Promise<void> {
    const { object, status } = await receivePostObject(req, {
      bucket,
      credentials: this.#credentials,
      region: this.region,
      now: this.#now(),
      store: this.store,
    });
    const location = `${this.origin}/${bucket}/${object.key.split('/').map(encodeURIComponent).join('/')}`;
    res.setHeader('etag', object.etag);
    res.setHeader('location', location);
    if (status !== 201) return void res.writeHead(status).end();
    this.#xml(res, 201, xmlDocument('PostResponse', { Location: location, Bucket: bucket, Key: object.key, ETag: object.etag }));
  }

  #xml(res: ServerResponse, status: number, xml: string): void {
    res.writeHead(status, { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(xml)) });
    res.end(xml);
  }

  async #fail(req: IncomingMessage, res: ServerResponse, error: unknown, resource: string, requestId: string): Promise<void> {
    const s3 = error instanceof S3Error ? error : new S3Error(500, 'InternalError', 'The local S3 failed to serve the request.');
    if (!(error instanceof S3Error)) this.#log(`local S3: ${(error as Error).stack ?? String(error)}`);
    if (res.headersSent) return void res.destroy();
    const drained = await discardBody(req, DISCARD_BOUND);
    if (req.method === 'HEAD') {
      res.writeHead(s3.status).end();
    } else {
      const xml = s3.toXml(resource, requestId);
      res.writeHead(s3.status, {
        'content-type': 'application/xml',
        'content-length': String(Buffer.byteLength(xml)),
        ...(drained ? {} : { connection: 'close' }),
      });
      res.end(xml);
    }
    if (!drained) res.once('finish', () => req.destroy());
  }
}
