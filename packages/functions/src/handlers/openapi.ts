import { definePublicHandler } from '../http/define-handler';
import { bare } from '../http/responses';
import { serviceDocument } from '../openapi/service-document';

/** GET /api/v1/openapi.json (no auth, free): the OpenAPI 3.1 document of every route. */
export const handler = definePublicHandler('openapi', {
  async handle() {
    return bare(await serviceDocument(), 200, { 'cache-control': 'public, max-age=300' });
  },
});
