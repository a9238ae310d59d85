/**
 * The signed-in credential. It lives in memory and in sessionStorage (so a reload keeps the
 * session, closing the tab ends it); never in the URL, localStorage or a cookie.
 */
export type Credential = { kind: 'api_key'; value: string } | { kind: 'jwt'; value: string };

const STORAGE_KEY = 'dbops.credential';
let current: Credential | null = null;

/** API keys carry the service prefix `dbo_`; a JWT is three base64url parts. */
export function parseCredential(input: string): Credential | null {
  const value = input.trim();
  if (/^dbo_[A-Za-z0-9_-]{10,}$/.test(value)) return { kind: 'api_key', value };
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value)) return { kind: 'jwt', value };
  return null;
}

export function credentialHeaders(c: Credential): Record<string, string> {
  return c.kind === 'api_key' ? { 'x-api-key': c.value } : { authorization: `Bearer ${c.value}` };
}

export function getCredential(): Credential | null {
  if (current) return current;
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    current = stored ? parseCredential(stored) : null;
  } catch {
    current = null;
  }
  return current;
}

export function setCredential(c: Credential | null): void {
  current = c;
  try {
    if (c) sessionStorage.setItem(STORAGE_KEY, c.value);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage disabled: the credential stays in memory for this page only.
  }
}
