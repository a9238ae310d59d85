import { routes } from '@dbops/functions/routes';
import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from './route-matcher';

describe('createRouteMatcher', () => {
  const match = createRouteMatcher(routes);

  it('matches literal segments before parameters and decodes parameters', () => {
    const m = match('GET', '/api/v1/migrations/requests/abc%2Fdef');
    expect(m).toMatchObject({ kind: 'found', route: { handler: 'migrations-request-get' }, params: { request_id: 'abc/def' } });
  });

  it('tells a wrong method from an unknown path', () => {
    expect(match('PUT', '/api/v1/api-keys')).toEqual({ kind: 'method_not_allowed', allowed: ['POST', 'GET'] });
    expect(match('GET', '/api/v1/api-keys/x/y')).toEqual({ kind: 'not_found' });
  });

  it('accepts a trailing slash and never lets a parameter span segments', () => {
    expect(match('GET', '/api/v1/health/')).toMatchObject({ kind: 'found' });
    expect(match('POST', '/api/v1/connections/a/b/introspect')).toEqual({ kind: 'not_found' });
  });

  it('passes invalid percent-encoding through as written instead of failing', () => {
    expect(match('GET', '/api/v1/connections/%zz')).toMatchObject({ kind: 'found', params: { connection_id: '%zz' } });
    expect(match('DELETE', '/api/v1/api-keys/%E0%A4%A')).toMatchObject({ kind: 'found', params: { key_id: '%E0%A4%A' } });
  });
});
