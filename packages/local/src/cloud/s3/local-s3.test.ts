import { createS3Client, createS3UploadStorage } from '@dbops/adapters/aws/s3-upload-storage';
import type { UploadStorage, UploadTarget } from '@dbops/core/documents';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalS3 } from './local-s3';

// The stand-in driven by what drives it in the cloud shape: the functions' own S3 adapter over
// the AWS SDK (credentials and region from the environment, as on Lambda), forms sent as a
// browser sends them, and, for the calls the adapter does not make, requests signed by the
// SDK's own SigV4 signer, so the stand-in's verifier is checked against an implementation not its own.

const BUCKET = 'dbops-test-uploads';
const credentials = { accessKeyId: 'AKIDLOCALTEST', secretAccessKey: 'local-test-secret' };
const user = '3f1c1d2e-0000-4000-8000-000000000001';
const keyOf = (batch: number, position: number): string => `uploads/${user}/3f1c1d2e-0000-4000-8000-00000000000${batch}/${position}`;

const bytes = (d: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof d === 'string' ? d : d instanceof ArrayBuffer ? new Uint8Array(d) : new Uint8Array(d.buffer, d.byteOffset, d.byteLength);

/** node:crypto in the shape the SDK signer takes (a hash, or an HMAC when given a secret). */
class Sha256 {
  readonly #h: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#h = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#h.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#h.digest());
  }
}

/** Sends the fields of a slot, then `file`, as the console's `sendToSlot` does. */
async function post(target: UploadTarget, content: string, o: { fields?: Record<string, string>; drop?: string[]; headers?: Record<string, string> } = {}) {
  const form = new FormData();
  for (const [n, v] of Object.entries({ ...target.fields, ...o.fields })) if (!o.drop?.includes(n)) form.append(n, v);
  form.append('file', new Blob([content], { type: 'text/plain' }), 'notes.txt');
  const res = await fetch(target.url, { method: 'POST', body: form, headers: o.headers ?? {} });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe('local S3', () => {
  let dir: string;
  let s3: LocalS3;
  let storage: UploadStorage;
  let skewMs = 0;

  beforeAll(async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', credentials.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
    vi.stubEnv('AWS_REGION', 'us-east-1');
    dir = await mkdtemp(path.join(tmpdir(), 'dbops-local-s3-'));
    s3 = new LocalS3({ dir, credentials, now: () => new Date(Date.now() + skewMs), log: () => undefined });
    await s3.listen();
    await s3.createBucket(BUCKET, {
      cors: [{ allowOrigins: ['*'], allowMethods: ['POST'], allowHeaders: ['*'], exposeHeaders: ['etag'], maxAgeSeconds: 3600 }],
      lifecycle: [{ prefix: 'uploads/', expireDays: 1 }],
    });
    storage = createS3UploadStorage(BUCKET, createS3Client(s3.origin));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const signer = new SignatureV4({ service: 's3', region: 'us-east-1', credentials, sha256: Sha256, uriEscapePath: false });
  /** A request signed by the SDK's signer (at this process's time), sent with `sentQuery` (default: the signed one). */
  const send = async (method: string, p: string, query: Record<string, string> = {}, sentQuery = query) => {
    const { hostname, port } = new URL(s3.origin);
    const signed = await signer.sign({
      method,
      protocol: 'http:',
      hostname,
      port: Number(port),
      path: p,
      query,
      headers: { host: `${hostname}:${port}`, 'x-amz-content-sha256': createHash('sha256').update('').digest('hex') },
    });
    const qs = new URLSearchParams(sentQuery).toString().replace(/\+/g, '%20');
    const res = await fetch(`${s3.origin}${p}${qs ? `?${qs}` : ''}`, { method, headers: signed.headers });
    return { status: res.status, text: await res.text() };
  };

  const slot = (key: string, content: string, expiresInMs = 15 * 60_000): Promise<UploadTarget> =>
    storage.createTarget({ key, token: 't', sizeBytes: Buffer.byteLength(content), contentType: 'text/plain', expiresAt: new Date(Date.now() + expiresInMs) });

  it('stores a file POSTed to a presigned slot; the adapter finds, reads and removes it', async () => {
    const key = keyOf(1, 0);
    const content = 'Refunds are approved by the warehouse lead.';
    const target = await slot(key, content);
    expect(target.url).toBe(`${s3.origin}/${BUCKET}`);
    const res = await post(target, content);
    expect(res.status, res.text).toBe(204);
    expect(res.headers.get('etag')).toBe(`"${createHash('md5').update(content).digest('hex')}"`);
    expect(await storage.exists(key)).toBe(true);
    expect(Buffer.from((await storage.read(key))!).toString()).toBe(content);
    expect((await s3.store.head(BUCKET, key))?.contentType).toBe('text/plain');
    await storage.remove([key]);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.read(key)).toBeUndefined();
  });

  it('refuses a form whose key, fields, policy, signature or file differ from what was signed, and stores nothing', async () => {
    const key = keyOf(2, 0);
    const content = 'Orders ship within two days.';
    const target = await slot(key, content);
    const policy = JSON.parse(Buffer.from(target.fields.Policy!, 'base64').toString('utf8')) as { conditions: unknown[] };
    const widened = Buffer.from(
      JSON.stringify({ ...policy, conditions: policy.conditions.map((c) => (Array.isArray(c) && c[0] === 'content-length-range' ? [c[0], 0, 1e9] : c)) }),
    ).toString('base64');
    const cases: [string, Parameters<typeof post>[2], string, number, string][] = [
      ['another key', { fields: { key: keyOf(2, 1) } }, content, 403, 'AccessDenied'],
      ['another content type', { fields: { 'Content-Type': 'application/pdf' } }, content, 403, 'AccessDenied'],
      ['a field the policy does not name', { fields: { 'x-amz-meta-owner': 'mallory' } }, content, 403, 'AccessDenied'],
      ['a rewritten policy', { fields: { Policy: widened } }, `${content} and a much longer tail`, 403, 'SignatureDoesNotMatch'],
      ['a forged signature', { fields: { 'X-Amz-Signature': 'f'.repeat(64) } }, content, 403, 'SignatureDoesNotMatch'],
      [
        'an unknown access key',
        { fields: { 'X-Amz-Credential': target.fields['X-Amz-Credential']!.replace(credentials.accessKeyId, 'AKIDOTHER') } },
        content,
        403,
        'InvalidAccessKeyId',
      ],
      ['no policy (anonymous)', { drop: ['Policy'] }, content, 403, 'AccessDenied'],
      ['a larger file', {}, `${content}!`, 400, 'EntityTooLarge'],
      ['a smaller file', {}, content.slice(1), 400, 'EntityTooSmall'],
      ['no key field', { drop: ['key'] }, content, 403, 'AccessDenied'],
    ];
    for (const [what, o, body, status, code] of cases) {
      const res = await post(target, body, o);
      expect([res.status, res.text], what).toEqual([status, expect.stringContaining(`<Code>${code}</Code>`)]);
      expect(res.headers.get('content-type'), what).toBe('application/xml');
    }
    expect(await s3.store.list(BUCKET)).toEqual([]);
    // The slot as signed still works.
    expect((await post(target, content)).status).toBe(204);
    await storage.remove([key]);
  });

  it('refuses a slot once its policy has expired', async () => {
    const content = 'Expires soon.';
    const target = await slot(keyOf(3, 0), content, 60_000);
    skewMs = 61_000;
    try {
      const res = await post(target, content);
      expect(res.status).toBe(403);
      expect(res.text).toContain('<Code>AccessDenied</Code>');
      expect(res.text).toContain('Policy expired');
    } finally {
      skewMs = 0;
    }
    expect(await storage.exists(keyOf(3, 0))).toBe(false);
  });

  it("checks every SDK call's signature: another secret, an unsigned request and a request 15 minutes off are refused", async () => {
    const key = keyOf(4, 0);
    const target = await slot(key, 'x');
    expect((await post(target, 'x')).status).toBe(204);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'not-the-secret');
    try {
      const wrong = createS3UploadStorage(BUCKET, createS3Client(s3.origin));
      await expect(wrong.read(key)).rejects.toMatchObject({ name: 'SignatureDoesNotMatch', $metadata: { httpStatusCode: 403 } });
      await expect(wrong.exists(key)).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      await expect(wrong.remove([key])).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    } finally {
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
    }
    expect(await storage.exists(key)).toBe(true);
    const unsigned = await fetch(`${s3.origin}/${BUCKET}/${key}`);
    expect(unsigned.status).toBe(403);
    expect(await unsigned.text()).toContain('<Code>AccessDenied</Code>');
    // The SDK corrects its clock from the answer's Date and signs again, as with S3; a plain signer does not.
    skewMs = 20 * 60_000;
    try {
      const skewed = await send('GET', `/${BUCKET}/${key}`);
      expect([skewed.status, skewed.text]).toEqual([403, expect.stringContaining('<Code>RequestTimeTooSkewed</Code>')]);
      // (A client of its own: the offset it learns would be wrong once the clock is back.)
      const corrected = createS3UploadStorage(BUCKET, createS3Client(s3.origin));
      expect(Buffer.from((await corrected.read(key))!).toString()).toBe('x');
    } finally {
      skewMs = 0;
    }
    await storage.remove([key]);
  });

  it("answers browsers with the bucket's CORS rule, on refusals too", async () => {
    const origin = 'http://127.0.0.1:4000';
    const allowed = await fetch(`${s3.origin}/${BUCKET}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
    expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
    expect(allowed.headers.get('access-control-max-age')).toBe('3600');
    const put = await fetch(`${s3.origin}/${BUCKET}/x`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } });
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('<Code>AccessForbidden</Code>');

    const content = 'From the console.';
    const target = await slot(keyOf(5, 0), content);
    const ok = await post(target, content, { headers: { origin } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toBe('etag');
    const refused = await post(target, `${content}!`, { headers: { origin } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    await storage.remove([keyOf(5, 0)]);
  });

  it('lists with ListObjectsV2 (prefix, delimiter, pages) and deletes one object, on requests the SDK signer signed', async () => {
    const keys = [keyOf(6, 0), keyOf(6, 1), keyOf(7, 0), 'notes/a b.txt'];
    for (const k of keys) expect((await post(await slot(k, k), k)).status).toBe(204);

    const all = await send('GET', `/${BUCKET}`, { 'list-type': '2', prefix: 'uploads/' });
    expect(all.status, all.text).toBe(200);
    expect([...all.text.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1])).toEqual([keyOf(6, 0), keyOf(6, 1), keyOf(7, 0)]);
    const folded = await send('GET', `/${BUCKET}`, { 'list-type': '2', prefix: `uploads/${user}/`, delimiter: '/' });
    expect([...folded.text.matchAll(/<Prefix>([^<]+)<\/Prefix>/g)].map((m) => m[1]).slice(1)).toHaveLength(2);
    expect(folded.text).toContain('<KeyCount>2</KeyCount>');
    const first = await send('GET', `/${BUCKET}`, { 'list-type': '2', 'max-keys': '2' });
    expect(first.text).toContain('<IsTruncated>true</IsTruncated>');
    const next = /<NextContinuationToken>([^<]+)</.exec(first.text)![1]!;
    const second = await send('GET', `/${BUCKET}`, { 'list-type': '2', 'max-keys': '2', 'continuation-token': next });
    expect([...second.text.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1])).toEqual([keyOf(6, 1), keyOf(7, 0)]);

    expect((await send('DELETE', `/${BUCKET}/notes/a%20b.txt`)).status).toBe(204);
    expect((await s3.store.list(BUCKET)).map((o) => o.key)).toEqual([keyOf(6, 0), keyOf(6, 1), keyOf(7, 0)]);
    // Signed for one prefix, sent with another.
    const tampered = await send('GET', `/${BUCKET}`, { 'list-type': '2', prefix: 'uploads/' }, { 'list-type': '2', prefix: 'notes/' });
    expect([tampered.status, tampered.text]).toEqual([403, expect.stringContaining('<Code>SignatureDoesNotMatch</Code>')]);
    await storage.remove(keys.slice(0, 3));
  });

  it("deletes uploads older than the lifecycle rule's days, and nothing younger", async () => {
    const content = 'Never confirmed.';
    expect((await post(await slot(keyOf(8, 0), content), content)).status).toBe(204);
    expect(await s3.applyLifecycle()).toBe(0);
    skewMs = 24 * 60 * 60_000 + 1000;
    try {
      expect(await s3.applyLifecycle()).toBe(1);
    } finally {
      skewMs = 0;
    }
    expect(await storage.exists(keyOf(8, 0))).toBe(false);
  });
});
