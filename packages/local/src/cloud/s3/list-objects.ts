import type { StoredObject } from './object-store';
import { S3Error } from './s3-error';
import { type XmlValue, xmlDocument } from './xml';

const token = (key: string): string => Buffer.from(key, 'utf8').toString('base64url');
const untoken = (t: string): string => Buffer.from(t, 'base64url').toString('utf8');

/**
 * ListObjectsV2 over a bucket's objects (in key order): `prefix`, `delimiter` (keys sharing the
 * part up to the next delimiter fold into one CommonPrefixes entry), `max-keys` (default and most
 * 1,000), `start-after`, `continuation-token` (the last key handed out, opaque to the client),
 * and `encoding-type=url`. Answers S3's ListBucketResult document.
 */
export function listObjectsV2(bucket: string, objects: readonly StoredObject[], query: URLSearchParams): string {
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const maxKeysText = query.get('max-keys') ?? '1000';
  if (!/^\d+$/.test(maxKeysText))
    throw new S3Error(400, 'InvalidArgument', 'max-keys must be a whole number.', { ArgumentName: 'max-keys', ArgumentValue: maxKeysText });
  const maxKeys = Math.min(Number(maxKeysText), 1000);
  const encodingType = query.get('encoding-type');
  if (encodingType !== null && encodingType !== 'url')
    throw new S3Error(400, 'InvalidArgument', 'encoding-type can only be url.', { ArgumentName: 'encoding-type' });
  const encode = (s: string): string => (encodingType === 'url' ? encodeURIComponent(s) : s);
  const continuation = query.get('continuation-token');
  const after = continuation !== null ? untoken(continuation) : (query.get('start-after') ?? '');

  const contents: StoredObject[] = [];
  const common: string[] = [];
  let last = '';
  let truncated = false;
  for (const o of objects) {
    if (!o.key.startsWith(prefix) || (after !== '' && Buffer.compare(Buffer.from(o.key), Buffer.from(after)) <= 0)) continue;
    const cut = delimiter === '' ? -1 : o.key.indexOf(delimiter, prefix.length);
    const folded = cut < 0 ? undefined : o.key.slice(0, cut + delimiter.length);
    // Keys under one common prefix count once, and the listing resumes after all of them.
    if (folded !== undefined && common.at(-1) === folded) {
      last = o.key;
      continue;
    }
    if (contents.length + common.length >= maxKeys) {
      truncated = true;
      break;
    }
    if (folded !== undefined) common.push(folded);
    else contents.push(o);
    last = o.key;
  }
  const body: { [name: string]: XmlValue | undefined } = {
    Name: bucket,
    Prefix: encode(prefix),
    ...(delimiter ? { Delimiter: encode(delimiter) } : {}),
    MaxKeys: maxKeys,
    KeyCount: contents.length + common.length,
    IsTruncated: truncated,
    ...(encodingType ? { EncodingType: encodingType } : {}),
    ...(continuation !== null ? { ContinuationToken: continuation } : {}),
    ...(truncated ? { NextContinuationToken: token(last) } : {}),
    ...(query.has('start-after') ? { StartAfter: encode(query.get('start-after')!) } : {}),
    Contents: contents.map((o) => ({ Key: encode(o.key), LastModified: o.lastModified.toISOString(), ETag: o.etag, Size: o.size, StorageClass: 'STANDARD' })),
    CommonPrefixes: common.map((p) => ({ Prefix: encode(p) })),
  };
  return xmlDocument('ListBucketResult', body);
}
