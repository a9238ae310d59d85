import type { RouteDefinition } from '@dbops/functions/routes';

export type RouteMatch =
  { kind: 'found'; route: RouteDefinition; params: Record<string, string> } | { kind: 'method_not_allowed'; allowed: string[] } | { kind: 'not_found' };

interface Compiled {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
}

/** A path segment decoded; invalid percent-encoding (`%zz`) is passed as written, for the handler's validation to refuse. */
function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Matches request paths against the route table the way API Gateway does (exact segments, `{param}` for one segment). */
export function createRouteMatcher(routes: readonly RouteDefinition[]): (method: string, path: string) => RouteMatch {
  const compiled: Compiled[] = routes.map((route) => {
    const names: string[] = [];
    const source = route.path
      .split('/')
      .map((segment) => {
        const m = /^\{(\w+)\}$/.exec(segment);
        if (!m?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(m[1]);
        return '([^/]+)';
      })
      .join('/');
    return { route, pattern: new RegExp(`^${source}/?$`), names };
  });

  return (method, path) => {
    const allowed: string[] = [];
    for (const c of compiled) {
      const m = c.pattern.exec(path);
      if (!m) continue;
      if (c.route.method !== method) {
        allowed.push(c.route.method);
        continue;
      }
      const params: Record<string, string> = {};
      c.names.forEach((name, i) => {
        params[name] = decodeSegment(m[i + 1] ?? '');
      });
      return { kind: 'found', route: c.route, params };
    }
    return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  };
}
