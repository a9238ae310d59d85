import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { handlerLoaders } from '../handlers/index';
import { routes } from '../routes';
import { buildOpenApiDocument, type OpenApiDocument } from './build-document';

const loadContract = async (name: string) => (await handlerLoaders[name as keyof typeof handlerLoaders]()).handler.contract;

describe('the OpenAPI document', () => {
  let doc: OpenApiDocument;

  it('is a valid OpenAPI 3.1 document', async () => {
    doc = await buildOpenApiDocument(routes, loadContract);
    // validate() dereferences in place: hand it a copy so later assertions see the $refs.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    expect(doc.openapi).toBe('3.1.0');
  });

  it('has every route of the route table, with its auth', () => {
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op?.security).toEqual(route.auth === 'none' ? [] : route.auth === 'jwt' ? [{ bearer: [] }] : [{ apiKey: [] }, { bearer: [] }]);
      expect(Object.keys(op?.responses as object)).toContain(String(route.status));
    }
    const count = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(count).toBe(routes.length);
  });

  it('takes request bodies from the handlers’ own schemas', () => {
    const create = doc.paths['/api/v1/connections']?.post as {
      requestBody: { content: Record<string, { schema: { required: string[]; properties: Record<string, { enum?: string[] }> } }> };
    };
    const schema = create.requestBody.content['application/json']?.schema;
    expect(schema?.required.sort()).toEqual(['connection_string', 'db_type', 'name']);
    expect(schema?.properties.db_type?.enum).toContain('postgresql_local');
    const analyze = doc.paths['/api/v1/connections/{connection_id}/migrations/analyze']?.post as {
      parameters: { name: string; in: string; schema: { format?: string } }[];
      'x-dbops-billable': boolean;
    };
    expect(analyze.parameters).toEqual([expect.objectContaining({ name: 'connection_id', in: 'path', schema: expect.objectContaining({ format: 'uuid' }) })]);
    expect(analyze['x-dbops-billable']).toBe(true);
  });

  it('describes multipart uploads and the spec’s bare forms', () => {
    const upload = doc.paths['/api/v1/connections/{connection_id}/documents/upload']?.post as { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    const poll = doc.paths['/api/v1/migrations/requests/{request_id}']?.get as { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
    expect(poll.responses['200']?.content['application/json']?.schema).toEqual({ type: 'object' });
  });
});
