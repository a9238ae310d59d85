import { useEffect, useState } from 'preact/hooks';
import { endpoints } from './api/endpoints';
import { type Credential, getCredential, setCredential } from './api/credential';
import type { Connection } from './api/types';
import { href, type Route, useRoute } from './lib/route';
import { ConnectionsView } from './views/connections';
import { DocumentsView } from './views/documents';
import { HistoryView } from './views/history';
import { OptimizeView } from './views/optimize';
import { ReviewView } from './views/review';
import { SchemaView } from './views/schema';
import { SignIn } from './views/sign-in';

const TABS = [
  { view: 'review', label: 'Migration review' },
  { view: 'schema', label: 'Schema' },
  { view: 'history', label: 'History' },
  { view: 'optimize', label: 'Query optimization' },
  { view: 'documents', label: 'Documents' },
] as const;

export function App() {
  const [credential, setCred] = useState<Credential | null>(() => getCredential());
  const route = useRoute();
  const [connection, setConnection] = useState<Connection | null>(null);
  const connectionId = route.view === 'connections' ? null : route.connectionId;

  useEffect(() => {
    if (!credential || !connectionId) return setConnection(null);
    if (connection?.id === connectionId) return;
    endpoints
      .listConnections()
      .then((list) => setConnection(list.find((c) => c.id === connectionId) ?? null))
      .catch(() => setConnection(null));
  }, [credential, connectionId]);

  if (!credential) {
    return (
      <SignIn
        onSignedIn={(c) => {
          setCredential(c);
          setCred(c);
        }}
      />
    );
  }
  const signOut = (): void => {
    setCredential(null);
    setCred(null);
    location.hash = '#/';
  };

  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/">
          dbops console
        </a>
        <nav aria-label="Connection views">
          {connectionId && (
            <ul class="tabs">
              {TABS.map((t) => (
                <li key={t.view}>
                  <a href={href({ view: t.view, connectionId })} aria-current={route.view === t.view ? 'page' : undefined}>
                    {t.label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </nav>
        <span class="who">{credential.kind === 'api_key' ? `API key ${credential.value.slice(0, 12)}…` : 'JWT session'}</span>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {connectionId && (
          <p class="crumb">
            <a href="#/">Connections</a> / <strong>{connection ? connection.name : connectionId}</strong>
            {connection && (
              <span class="muted">
                {' '}
                {connection.host}:{connection.port}/{connection.database_name}
              </span>
            )}
          </p>
        )}
        <View route={route} />
      </main>
    </div>
  );
}

function View({ route }: { route: Route }) {
  switch (route.view) {
    case 'connections':
      return <ConnectionsView />;
    case 'schema':
      return <SchemaView connectionId={route.connectionId} />;
    case 'review':
      return <ReviewView connectionId={route.connectionId} />;
    case 'history':
      return <HistoryView connectionId={route.connectionId} />;
    case 'optimize':
      return <OptimizeView connectionId={route.connectionId} />;
    case 'documents':
      return <DocumentsView connectionId={route.connectionId} />;
  }
}
