import { describe, expect, it } from 'vitest';
import { bare, failure, ok } from '../http/responses';
import { routeOf } from '../routes';
import { responseMismatch } from './check-response';

const connection = {
  id: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
  name: 'shop',
  db_type: 'postgresql_local',
  host: 'localhost',
  port: 5432,
  database_name: 'shop',
  is_active: true,
  created_at: '2026-01-02T03:04:05.678Z',
  last_introspected_at: null,
};

describe('responseMismatch: a success answer against its route’s response schema', () => {
  it('accepts an answer that keeps the promise, and does not judge failures or routes without a schema', () => {
    expect(responseMismatch(routeOf('connections-list'), ok([connection]))).toBeNull();
    expect(responseMismatch(routeOf('connections-get'), failure(404, { code: 'NOT_FOUND', message: 'no' }))).toBeNull();
    expect(responseMismatch(routeOf('api-reference'), bare({ anything: true }))).toBeNull();
  });

  it('checks a JSON-RPC answer of the MCP endpoint as it is sent', () => {
    const mcp = routeOf('mcp');
    expect(mcp.method).toBe('POST');
    expect(responseMismatch(mcp, bare({ jsonrpc: '2.0', id: 1, result: { tools: [] } }))).toBeNull();
    expect(responseMismatch(mcp, bare({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }))).toBeNull();
    expect(responseMismatch(mcp, bare({ jsonrpc: '1.0', id: 1, result: {} }))).toContain('off its response schema');
  });

  it('names the field of an envelope’s data that drifted', () => {
    const { port: _port, ...withoutPort } = connection;
    const problem = responseMismatch(routeOf('connections-list'), ok([withoutPort]));
    expect(problem).toContain('GET /api/v1/connections answered 200 off its response schema');
    expect(problem).toContain('port');
    expect(responseMismatch(routeOf('connections-get'), ok({ ...connection, created_at: 'yesterday' }))).toContain('created_at');
  });

  it('checks a bare body as a whole, and an envelope route answering without one', () => {
    expect(responseMismatch(routeOf('migrations-request-get'), bare({ request_id: connection.id, status: 'done' }))).toContain('status');
    expect(responseMismatch(routeOf('migrations-execute'), bare({ request_id: connection.id, status: 'pending' }, 202))).toContain(
      'without a success envelope',
    );
    expect(responseMismatch(routeOf('migrations-execute'), ok({ request_id: connection.id, status: 'pending' }, 202))).toBeNull();
  });
});
