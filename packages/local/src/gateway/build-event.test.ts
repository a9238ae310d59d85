import type { RouteDefinition } from '@dbops/functions/routes';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { buildHandlerEvent, isTextBody, readGatewayRequest } from './build-event';

const route: RouteDefinition = {
  method: 'POST',
  path: '/api/v1/x/{id}',
  handler: 'h',
  auth: 'api_key_or_jwt',
  billable: false,
  summary: '',
  status: 200,
  form: 'envelope',
  body: 'json',
};

const fakeRequest = (rawHeaders: string[], url = '/api/v1/x/1?a=1&a=2&b=3'): IncomingMessage =>
  ({ method: 'POST', url, rawHeaders, socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage;

describe('payload 2.0 event', () => {
  it('lower-cases headers, joins repeats with commas and moves cookies out', () => {
    const r = readGatewayRequest(fakeRequest(['X-Thing', 'a', 'x-thing', 'b', 'Cookie', 'c1=1; c2=2']), Buffer.alloc(0), 'rid');
    expect(r.headers).toEqual({ 'x-thing': 'a,b' });
    expect(r.cookies).toEqual(['c1=1', 'c2=2']);
    expect(r.queryStringParameters).toEqual({ a: '1,2', b: '3' });
  });

  it('base64-encodes binary bodies and passes text bodies as is', () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    const bin = readGatewayRequest(fakeRequest(['Content-Type', 'multipart/form-data; boundary=x']), bytes, 'rid');
    const e1 = buildHandlerEvent(bin, route, { id: '1' }, { userId: 'u', authMethod: 'jwt' });
    expect(e1.isBase64Encoded).toBe(true);
    expect(Buffer.from(e1.body ?? '', 'base64')).toEqual(bytes);
    expect(e1.requestContext.authorizer).toEqual({ lambda: { userId: 'u', authMethod: 'jwt' } });
    expect(e1.pathParameters).toEqual({ id: '1' });
    expect(e1.routeKey).toBe('POST /api/v1/x/{id}');

    const text = readGatewayRequest(fakeRequest(['Content-Type', 'application/json']), Buffer.from('{"a":1}'), 'rid');
    const e2 = buildHandlerEvent(text, route, {}, undefined);
    expect(e2.isBase64Encoded).toBe(false);
    expect(e2.body).toBe('{"a":1}');
  });

  it('treats JSON, text and form bodies as text, everything else as binary', () => {
    expect(isTextBody('application/json; charset=utf-8')).toBe(true);
    expect(isTextBody('application/vnd.api+json')).toBe(true);
    expect(isTextBody('text/plain')).toBe(true);
    expect(isTextBody('application/pdf')).toBe(false);
    expect(isTextBody('multipart/form-data; boundary=x')).toBe(false);
  });
});
