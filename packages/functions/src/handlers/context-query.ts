import { queryContext } from '@dbops/core/context';
import { z } from 'zod';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';

/** Body of the context query; both `table_names` and `query` may be empty, not both absent of meaning. */
const body = z.object({
  table_names: z.array(z.string().min(1).max(200)).max(100).default([]),
  query: z.string().max(10_000).default(''),
  max_chunks: z.int().min(0).max(50).default(10),
});

/** POST /api/v1/connections/{connection_id}/context/query: schema metadata plus ranked document chunks. */
export const handler = defineHandler('context-query', {
  params: uuidParam('connection_id'),
  body,
  async handle({ params, body, auth, container }) {
    const result = await queryContext(domainDeps(container), auth.userId, params.connection_id, {
      tableNames: body.table_names,
      query: body.query,
      maxChunks: body.max_chunks,
    });
    return ok(result);
  },
});
