import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error';
import { issueApprovalToken, sqlDigest, verifyApprovalToken } from './approval-token';

const now = new Date('2026-01-01T00:00:00Z');
const input = { userId: 'u1', connectionId: 'c1', sql: 'ALTER TABLE t ADD COLUMN x int;' };

describe('approval tokens', () => {
  it('round-trips the claims with a fresh nonce each time', () => {
    const a = issueApprovalToken(input, { secret: 's', now });
    const b = issueApprovalToken(input, { secret: 's', now });
    expect(a.claims.nonce).not.toBe(b.claims.nonce);
    const claims = verifyApprovalToken(a.token, { secret: 's', now });
    expect(claims).toMatchObject({ uid: 'u1', cid: 'c1', sql: sqlDigest(input.sql), exp: claims.iat + 3600 });
    expect(a.expires_at).toBe('2026-01-01T01:00:00.000Z');
  });

  it('rejects a wrong key, a tampered payload and an expired token', () => {
    const { token } = issueApprovalToken(input, { secret: 's', now });
    const [p, payload, sig] = token.split('.');
    const tampered = `${p}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), cid: 'c2' })).toString('base64url')}.${sig}`;
    for (const [t, secret, at] of [
      [token, 'other', now],
      [tampered, 's', now],
      [token, 's', new Date(now.getTime() + 3600_000)],
      ['garbage', 's', now],
    ] as const) {
      const error = (() => {
        try {
          verifyApprovalToken(t, { secret, now: at });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('TOKEN_INVALID');
    }
  });
});
