import { definePublicHandler } from '../http/define-handler';
import { serviceDocument } from '../openapi/service-document';
import { renderReferencePage } from '../openapi/reference-page';

/** GET /api/v1/docs (no auth, free): the API reference as one HTML page. */
export const handler = definePublicHandler('api-reference', {
  async handle() {
    return {
      statusCode: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'public, max-age=300',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      },
      body: renderReferencePage(await serviceDocument()),
    };
  },
});
