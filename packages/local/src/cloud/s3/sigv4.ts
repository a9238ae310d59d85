import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { S3Error } from './s3-error';

/** The access key the stand-in knows, as an IAM user's would be. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** What a SigV4 signature is bound to: `<access key>/<yyyymmdd>/<region>/s3/aws4_request`. */
export interface CredentialScope {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

export const ALGORITHM = 'AWS4-HMAC-SHA256';
/** How far a signed request's time may be from the server's (S3: 15 minutes). */
const MAX_SKEW_MS = 15 * 60 * 1000;

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** The key a day's signatures in one region and service are made with. */
export function signingKey(secret: string, scope: Pick<CredentialScope, 'date' | 'region' | 'service'>): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, scope.date), scope.region), scope.service), 'aws4_request');
}

/** Hex HMAC of `text` with the scope's signing key. */
export const signHex = (secret: string, scope: CredentialScope, text: string): string =>
  createHmac('sha256', signingKey(secret, scope)).update(text, 'utf8').digest('hex');

/** Constant-time comparison of two hex signatures. */
export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given.toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function parseCredential(text: string): CredentialScope | null {
  const parts = text.split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request' || !/^\d{8}$/.test(parts[1]!)) return null;
  return { accessKeyId: parts[0]!, date: parts[1]!, region: parts[2]!, service: parts[3]! };
}

/** `yyyymmddThhmmssZ` as a time, or null. */
export function parseAmzDate(text: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : null;
}

/**
 * Checks a scope against the stand-in's one key and region, as S3 does before it looks at the
 * signature: an unknown key, a wrong region or service, or a malformed scope are refused.
 */
export function checkScope(scope: CredentialScope | null, credentials: S3Credentials, region: string): CredentialScope {
  if (!scope) throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The credential must read <access key>/<yyyymmdd>/<region>/s3/aws4_request.');
  if (scope.accessKeyId !== credentials.accessKeyId)
    throw new S3Error(403, 'InvalidAccessKeyId', 'This access key ID is not known here.', { AWSAccessKeyId: scope.accessKeyId });
  if (scope.region !== region)
    throw new S3Error(400, 'AuthorizationHeaderMalformed', `The credential's region '${scope.region}' is wrong: this endpoint is '${region}'.`, {
      Region: region,
    });
  if (scope.service !== 's3')
    throw new S3Error(400, 'AuthorizationHeaderMalformed', `The credential's service '${scope.service}' is wrong: this endpoint is 's3'.`);
  return scope;
}

const RFC3986 = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(rawQuery: string): string {
  const pairs: [string, string][] = [];
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const [k, v] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    try {
      pairs.push([RFC3986(decodeURIComponent(k)), RFC3986(decodeURIComponent(v))]);
    } catch {
      throw new S3Error(400, 'InvalidArgument', 'The query string is not valid percent-encoding.');
    }
  }
  pairs.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

const headerValue = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');

/** A request as it arrived: the path and query exactly as sent (S3 signs them without re-encoding). */
export interface ArrivedRequest {
  method: string;
  rawPath: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
}

/**
 * Verifies a request signed with SigV4 in its `Authorization` header, as the SDK signs every
 * call: known key, right region and service, a time within 15 minutes of now, `host` and
 * `x-amz-content-sha256` signed, and the signature over the canonical request. Answers the
 * payload hash the signature covers; the caller checks the body against it once read.
 */
export function verifyHeaderSignature(req: ArrivedRequest, credentials: S3Credentials, region: string, now: Date): { payloadHash: string } {
  const auth = headerValue(req.headers.authorization);
  if (!auth) throw new S3Error(403, 'AccessDenied', 'Access Denied');
  const m = /^(\S+) Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-fA-F]+)$/.exec(auth);
  if (!m || m[1] !== ALGORITHM) throw new S3Error(400, 'InvalidArgument', 'Only AWS4-HMAC-SHA256 signatures are accepted.', { ArgumentName: 'Authorization' });
  const scope = checkScope(parseCredential(m[2]!), credentials, region);
  const signedHeaders = m[3]!.split(';');
  const amzDate = headerValue(req.headers['x-amz-date']);
  const at = parseAmzDate(amzDate);
  if (!at) throw new S3Error(403, 'AccessDenied', 'A signed request needs a valid x-amz-date header.');
  if (Math.abs(at.getTime() - now.getTime()) > MAX_SKEW_MS)
    throw new S3Error(403, 'RequestTimeTooSkewed', 'The request time is more than 15 minutes away from the server time.', {
      RequestTime: amzDate,
      ServerTime: now.toISOString(),
      MaxAllowedSkewMilliseconds: MAX_SKEW_MS,
    });
  if (amzDate.slice(0, 8) !== scope.date)
    throw new S3Error(403, 'SignatureDoesNotMatch', `The credential's date ${scope.date} is not the day of x-amz-date ${amzDate}.`);
  const payloadHash = headerValue(req.headers['x-amz-content-sha256']);
  if (!payloadHash) throw new S3Error(400, 'InvalidRequest', 'A SigV4 request needs the x-amz-content-sha256 header.');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-content-sha256'))
    throw new S3Error(403, 'AccessDenied', 'The request must sign the host and x-amz-content-sha256 headers.');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && !/^[0-9a-f]{64}$/.test(payloadHash))
    throw new S3Error(501, 'NotImplemented', 'Only signed or UNSIGNED-PAYLOAD bodies are served here, not streaming signatures.', {
      Header: 'x-amz-content-sha256',
    });

  const canonicalRequest = [
    req.method,
    req.rawPath,
    canonicalQuery(req.rawQuery),
    signedHeaders.map((h) => `${h}:${headerValue(req.headers[h])}\n`).join(''),
    signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
  const stringToSign = [ALGORITHM, amzDate, `${scope.date}/${scope.region}/${scope.service}/aws4_request`, sha256Hex(canonicalRequest)].join('\n');
  if (!sameSignature(signHex(credentials.secretAccessKey, scope, stringToSign), m[4]!))
    throw new S3Error(
      403,
      'SignatureDoesNotMatch',
      'The signature does not match the one computed for this request: check the secret key and the signing method.',
    );
  return { payloadHash };
}
