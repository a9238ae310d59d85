import { useState } from 'preact/hooks';
import { API_BASE, ApiError } from '../api/client';
import { type Credential, credentialHeaders, parseCredential } from '../api/credential';

/**
 * Sign-in with an API key (`dbo_...`) or a JWT (locally: the one `npm start` prints, or
 * `npm run -s token`). The credential is checked with a free call before it is kept.
 */
export function SignIn({ onSignedIn }: { onSignedIn(c: Credential): void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const credential = parseCredential(value);
    if (!credential) return setError('That is neither an API key (dbo_…) nor a JWT.');
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`${API_BASE}/connections`, { headers: credentialHeaders(credential) });
      if (!res.ok) throw new ApiError(res.status, 'FORBIDDEN', res.status === 403 ? 'The service refused this credential.' : `HTTP ${res.status}`);
      onSignedIn(credential);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The service could not be reached.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin" id="main">
      <form onSubmit={submit} class="card" aria-labelledby="signin-h">
        <h1 id="signin-h">dbops console</h1>
        <p>Review, approve and run PostgreSQL migrations.</p>
        <label for="credential">API key or JWT</label>
        <input
          id="credential"
          name="credential"
          type="password"
          autoComplete="off"
          spellcheck={false}
          required
          value={value}
          onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)}
          aria-describedby="credential-help"
        />
        <p id="credential-help" class="muted small">
          Kept in this tab's session storage only; closing the tab signs you out. Locally, <code>npm start</code> prints a JWT.
        </p>
        {error && (
          <p class="note error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
