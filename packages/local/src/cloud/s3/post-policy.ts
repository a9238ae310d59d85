import { policyRefusal, S3Error } from './s3-error';
import { ALGORITHM, checkScope, parseAmzDate, parseCredential, type S3Credentials, sameSignature, signHex } from './sigv4';

/** The largest object one POST may create (S3's single-upload limit). */
export const MAX_OBJECT_BYTES = 5 * 1024 ** 3;

/** What a valid policy leaves to check on the file itself: its size. */
export interface PostLimits {
  minBytes: number;
  maxBytes: number;
}

/** Fields S3 never asks a policy to list. */
const UNLISTED = new Set(['x-amz-signature', 'file', 'policy']);

const invalidPolicy = (why: string): S3Error => new S3Error(400, 'InvalidPolicyDocument', `Invalid Policy: ${why}`);

const decodePolicy = (base64: string): { expiration?: unknown; conditions?: unknown } => {
  try {
    const parsed = JSON.parse(Buffer.from(base64, 'base64').toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as { expiration?: unknown; conditions?: unknown };
  } catch {
    // refused below
  }
  throw invalidPolicy('Invalid JSON.');
};

const byteCount = (v: unknown): number => {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  throw invalidPolicy('Invalid content-length-range: the bounds must be whole numbers of bytes.');
};

/**
 * Checks a browser-based upload (POST Object with a SigV4 policy) before any byte of its file is
 * kept, as S3 does: the policy signed with the stand-in's key for its region, not expired, every
 * condition met by the form's fields (`bucket` by the bucket posted to), and no field the policy
 * does not name. Field names match case-insensitively; values exactly. `fields` holds the fields
 * sent before `file`, names lower-cased. Answers the size bounds the file must fall within.
 */
export function checkPostPolicy(fields: ReadonlyMap<string, string>, bucket: string, credentials: S3Credentials, region: string, now: Date): PostLimits {
  const policy = fields.get('policy');
  // No policy is an anonymous upload, which a private bucket refuses.
  if (policy === undefined) throw new S3Error(403, 'AccessDenied', 'Access Denied');
  if (fields.get('x-amz-algorithm') !== ALGORITHM)
    throw new S3Error(400, 'InvalidArgument', `Only ${ALGORITHM} signed policies are accepted.`, { ArgumentName: 'x-amz-algorithm' });
  const scope = checkScope(parseCredential(fields.get('x-amz-credential') ?? ''), credentials, region);
  if (!parseAmzDate(fields.get('x-amz-date') ?? ''))
    throw new S3Error(400, 'InvalidArgument', 'x-amz-date must be an ISO 8601 basic date.', { ArgumentName: 'x-amz-date' });
  if (!sameSignature(signHex(credentials.secretAccessKey, scope, policy), fields.get('x-amz-signature') ?? ''))
    throw new S3Error(
      403,
      'SignatureDoesNotMatch',
      'The signature does not match the one computed for this request: check the secret key and the signing method.',
    );

  const doc = decodePolicy(policy);
  const expiration = typeof doc.expiration === 'string' ? Date.parse(doc.expiration) : NaN;
  if (Number.isNaN(expiration)) throw invalidPolicy(`Invalid 'expiration' value: '${String(doc.expiration)}'`);
  if (!Array.isArray(doc.conditions)) throw invalidPolicy("Policy missing 'conditions'.");
  if (now.getTime() > expiration) throw policyRefusal('Policy expired.');

  const valueOf = (name: string): string | undefined => (name === 'bucket' ? bucket : fields.get(name));
  const listed = new Set<string>();
  let limits: PostLimits = { minBytes: 0, maxBytes: MAX_OBJECT_BYTES };
  const require = (condition: unknown, name: string, test: (value: string) => boolean): void => {
    listed.add(name);
    const value = valueOf(name);
    if (value === undefined || !test(value)) throw policyRefusal(`Policy Condition failed: ${JSON.stringify(condition)}`);
  };
  for (const c of doc.conditions as unknown[]) {
    if (c && typeof c === 'object' && !Array.isArray(c)) {
      for (const [name, expected] of Object.entries(c)) require({ [name]: expected }, name.toLowerCase(), (v) => v === String(expected));
      continue;
    }
    if (!Array.isArray(c) || c.length !== 3) throw invalidPolicy(`Invalid Condition: ${JSON.stringify(c)}`);
    const op = String(c[0]).toLowerCase();
    if (op === 'content-length-range') {
      limits = { minBytes: byteCount(c[1]), maxBytes: Math.min(byteCount(c[2]), MAX_OBJECT_BYTES) };
      continue;
    }
    if ((op !== 'eq' && op !== 'starts-with') || typeof c[1] !== 'string' || !c[1].startsWith('$') || typeof c[2] !== 'string')
      throw invalidPolicy(`Invalid Condition: ${JSON.stringify(c)}`);
    const expected = c[2];
    require(c, c[1].slice(1).toLowerCase(), op === 'eq' ? (v) => v === expected : (v) => v.startsWith(expected));
  }
  const extra = [...fields.keys()].filter((n) => !UNLISTED.has(n) && !n.startsWith('x-ignore-') && !listed.has(n));
  if (extra.length > 0) throw policyRefusal(`Extra input fields: ${extra.join(', ')}`);
  if (limits.minBytes > limits.maxBytes) throw invalidPolicy('Invalid content-length-range: the minimum is above the maximum.');
  return limits;
}
