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
  });

  it('describes the success body of every route that answers JSON', () => {
    const undescribed = routes.filter((r) => r.form !== 'html' && r.status < 300 && !r.response).map((r) => `${r.method} ${r.path}`);
    expect(undescribed).toEqual([]);
  });

  it('names a recursive schema once, as a component its references reach', () => {
    const optimize = success('/api/v1/connections/{connection_id}/queries/optimize', 'post', '200');
    const root = optimize.properties?.execution_plan?.properties?.root as { $ref?: string };
    expect(root.$ref).toBe('#/components/schemas/PlanNode');
    const schemas = (doc.components as { schemas: Record<string, Schema> }).schemas;
    expect(schemas.PlanNode?.properties?.children?.items).toEqual({ $ref: '#/components/schemas/PlanNode' });
    expect(JSON.stringify(doc)).not.toContain('#/$defs/');
  });

  type Schema = { type?: string; required?: string[]; properties?: Record<string, Schema>; items?: Schema; const?: unknown; format?: string };
  const success = (path: string, method: string, status: string): Schema =>
    (doc.paths[path]?.[method] as { responses: Record<string, { content: Record<string, { schema: Schema }> }> }).responses[status]!.content[
      'application/json'
    ]!.schema;

  it('takes success bodies from the route table’s response schemas: the CLI’s routes at least', () => {
    // Bare: the body itself.
    const report = success('/api/v1/connections/{connection_id}/migrations/analyze', 'post', '200');
    expect(report.required).toEqual(expect.arrayContaining(['connection_id', 'statements', 'findings', 'approval_token', 'sandbox_result']));
    expect(report.properties?.findings?.items?.required).toEqual(expect.arrayContaining(['rule', 'severity', 'location']));
    const poll = success('/api/v1/migrations/requests/{request_id}', 'get', '200');
    expect(poll.required).toEqual(expect.arrayContaining(['request_id', 'status', 'result', 'error']));
    expect(poll.properties?.request_id?.format).toBe('uuid');
    // Envelope: `data` described, `success` true and `error` null.
    const executed = success('/api/v1/migrations/execute', 'post', '202');
    expect(executed.properties?.success).toEqual({ const: true });
    expect(executed.properties?.error).toEqual({ type: 'null' });
    expect(executed.properties?.data?.required?.sort()).toEqual(['request_id', 'status']);
    const listed = success('/api/v1/connections', 'get', '200');
    expect(listed.properties?.data?.type).toBe('array');
    expect(listed.properties?.data?.items?.required).toEqual(expect.arrayContaining(['id', 'name', 'db_type', 'is_active', 'last_introspected_at']));
  });
});
