import { useEffect, useState } from 'preact/hooks';
import { endpoints } from '../api/endpoints';
import type { Connection } from '../api/types';
import { formatTime } from '../lib/format';
import { href } from '../lib/route';
import { useAsync } from '../lib/use-async';
import { ErrorNote, Section } from './common';

const DB_TYPES = [
  ['postgresql_local', 'Self-managed server'],
  ['postgresql', 'Other PostgreSQL-compatible'],
  ['provider_a', 'Managed PostgreSQL host'],
  ['postgresql_cloud_a', 'Cloud provider A managed instance'],
  ['postgres_cloud_b', 'Cloud provider B managed service'],
] as const;

export function ConnectionsView() {
  const [list, load] = useAsync(endpoints.listConnections);
  useEffect(() => void load(), []);
  return (
    <>
      <h1>Connections</h1>
      <div class="grid two">
        <Section title="Your databases">
          <ErrorNote error={list.error} />
          {list.data && list.data.length === 0 && <p class="muted">No connection yet: register one.</p>}
          {list.data && list.data.length > 0 && (
            <table>
              <caption class="sr-only">Registered connections</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Database</th>
                  <th scope="col">Last introspected</th>
                  <th scope="col">Open</th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((c) => (
                  <tr key={c.id}>
                    <td>{c.name}</td>
                    <td>
                      <code>
                        {c.host}:{c.port}/{c.database_name}
                      </code>
                    </td>
                    <td>{formatTime(c.last_introspected_at)}</td>
                    <td class="actions">
                      <a href={href({ view: 'review', connectionId: c.id })}>Review</a> <a href={href({ view: 'schema', connectionId: c.id })}>Schema</a>{' '}
                      <a href={href({ view: 'history', connectionId: c.id })}>History</a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Section>
        <RegisterForm onRegistered={() => void load()} />
      </div>
    </>
  );
}

function RegisterForm({ onRegistered }: { onRegistered(c: Connection): void }) {
  const [name, setName] = useState('');
  const [dbType, setDbType] = useState<string>('postgresql_local');
  const [url, setUrl] = useState('');
  const [state, register] = useAsync(endpoints.registerConnection);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const c = await register({ name, db_type: dbType, connection_string: url });
    if (c) {
      setUrl('');
      onRegistered(c);
    }
  };
  const reason = state.error?.details?.reason;

  return (
    <Section title="Register a connection">
      <form onSubmit={submit} class="stack">
        <label for="conn-name">Name</label>
        <input id="conn-name" required maxLength={200} value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
        <label for="conn-type">Kind of server</label>
        <select id="conn-type" value={dbType} onChange={(e) => setDbType((e.currentTarget as HTMLSelectElement).value)}>
          {DB_TYPES.map(([v, label]) => (
            <option key={v} value={v}>
              {label} ({v})
            </option>
          ))}
        </select>
        <label for="conn-url">Connection string</label>
        <input
          id="conn-url"
          type="password"
          autoComplete="off"
          required
          placeholder="postgresql://user:password@host:5432/db?sslmode=require"
          value={url}
          onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
          aria-describedby="conn-url-help"
        />
        <p id="conn-url-help" class="muted small">
          Encrypted at rest and never shown again. The service connects once to check it is reachable.
        </p>
        <button type="submit" disabled={state.busy}>
          {state.busy ? 'Checking reachability…' : 'Register'}
        </button>
      </form>
      <div aria-live="polite">
        {state.data && (
          <p class="note ok" data-testid="reachability">
            Reachable: <strong>{state.data.name}</strong> registered ({state.data.host}:{state.data.port}/{state.data.database_name}).{' '}
            <a href={href({ view: 'review', connectionId: state.data.id })}>Review a migration on it</a>
          </p>
        )}
        {state.error && (
          <p class="note error" role="alert" data-testid="reachability">
            Not registered: {state.error.message}
            {typeof reason === 'string' && <span> (reason: {reason})</span>}
          </p>
        )}
      </div>
    </Section>
  );
}
