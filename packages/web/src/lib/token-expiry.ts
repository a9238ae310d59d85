/** How long an approval token has left, read from its payload (no signature check: display only). */
export const EXPIRY_WARNING_SECONDS = 10 * 60;

export interface TokenExpiry {
  expiresAt: Date;
  secondsLeft: number;
  state: 'valid' | 'expiring' | 'expired';
}

function decodeBase64Url(s: string): string {
  const b64 = s
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(s.length / 4) * 4, '=');
  return atob(b64);
}

/** Null when the token is not in the service's `dbops_at.<payload>.<signature>` form. */
export function tokenExpiry(token: string, now: Date): TokenExpiry | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'dbops_at' || !parts[1]) return null;
  let exp: unknown;
  try {
    exp = (JSON.parse(decodeBase64Url(parts[1])) as { exp?: unknown }).exp;
  } catch {
    return null;
  }
  if (typeof exp !== 'number') return null;
  const secondsLeft = Math.floor(exp - now.getTime() / 1000);
  return {
    expiresAt: new Date(exp * 1000),
    secondsLeft: Math.max(0, secondsLeft),
    state: secondsLeft <= 0 ? 'expired' : secondsLeft <= EXPIRY_WARNING_SECONDS ? 'expiring' : 'valid',
  };
}

export function formatCountdown(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}
