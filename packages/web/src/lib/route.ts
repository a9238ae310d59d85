import { useEffect, useState } from 'preact/hooks';

/** The console's views. The hash holds only ids and view names, never a credential. */
export type Route = { view: 'connections' } | { view: 'schema' | 'review' | 'history' | 'optimize' | 'documents'; connectionId: string };

const CONNECTION_VIEWS = ['schema', 'review', 'history', 'optimize', 'documents'] as const;

export function parseRoute(hash: string): Route {
  const m = /^#\/c\/([0-9a-f-]{36})\/(\w+)$/i.exec(hash);
  const view = m?.[2] as (typeof CONNECTION_VIEWS)[number] | undefined;
  if (m?.[1] && view && CONNECTION_VIEWS.includes(view)) return { view, connectionId: m[1] };
  return { view: 'connections' };
}

export function href(route: Route): string {
  return route.view === 'connections' ? '#/' : `#/c/${route.connectionId}/${route.view}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}
