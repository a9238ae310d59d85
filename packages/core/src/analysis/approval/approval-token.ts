import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors/app-error';

/** Name of the HMAC signing key in the secret store. */
export const APPROVAL_KEY_SECRET = 'approval-signing-key';
/** Spec section 3: a token is valid for one hour from issue. */
export const APPROVAL_TOKEN_TTL_SECONDS = 3600;

/** What a token encodes (spec section 3): the SQL (as its SHA-256), the connection, the user and a single-use nonce. */
export interface ApprovalClaims {
  v: 1;
  /** User the analysis was run for. */
  uid: string;
  /** Connection id. */
  cid: string;
  /** SHA-256 (hex) of the analyzed SQL text, byte for byte. */
  sql: string;
  /** Single-use nonce; execution enforces it with a unique constraint. */
  nonce: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
}

export const sqlDigest = (sql: string): string => createHash('sha256').update(sql, 'utf8').digest('hex');

const sign = (payload: string, secret: string): string => createHmac('sha256', secret).update(payload).digest('base64url');

/** Issues a signed token `dbops_at.<payload>.<signature>` for exactly this SQL on this connection. */
export function issueApprovalToken(
  input: { userId: string; connectionId: string; sql: string },
  options: { secret: string; now: Date; ttlSeconds?: number },
): { token: string; claims: ApprovalClaims; expires_at: string } {
  const iat = Math.floor(options.now.getTime() / 1000);
  const claims: ApprovalClaims = {
    v: 1,
    uid: input.userId,
    cid: input.connectionId,
    sql: sqlDigest(input.sql),
    nonce: randomUUID(),
    iat,
    exp: iat + (options.ttlSeconds ?? APPROVAL_TOKEN_TTL_SECONDS),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { token: `dbops_at.${payload}.${sign(payload, options.secret)}`, claims, expires_at: new Date(claims.exp * 1000).toISOString() };
}

/**
 * Checks signature and expiry and returns the claims; TOKEN_INVALID (401) otherwise, telling
 * the user to analyze again. Matching SQL, connection and user is the caller's job, so it can
 * say which of them differs.
 */
export function verifyApprovalToken(token: string, options: { secret: string; now: Date }): ApprovalClaims {
  const invalid = (why: string) => new AppError('TOKEN_INVALID', `Approval token ${why}; analyze the migration again to get a new one.`);
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'dbops_at' || !parts[1] || !parts[2]) throw invalid('is malformed');
  const expected = Buffer.from(sign(parts[1], options.secret));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid('has an invalid signature');
  let claims: ApprovalClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as ApprovalClaims;
  } catch {
    throw invalid('is malformed');
  }
  if (claims.v !== 1 || typeof claims.exp !== 'number' || typeof claims.nonce !== 'string') throw invalid('is malformed');
  if (Math.floor(options.now.getTime() / 1000) >= claims.exp) throw invalid('has expired');
  return claims;
}
