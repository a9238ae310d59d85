import { definePublicHandler } from '../http/define-handler';
import { ok } from '../http/responses';

/** GET /api/v1/health: ready once the state store answers. */
export const handler = definePublicHandler('health', {
  async handle({ container }) {
    await container.store.query('SELECT 1');
    return ok({ status: 'ok', version: 'v1', store: container.store.kind, mode: container.settings.mode });
  },
});
