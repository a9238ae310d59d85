import { createApiKey } from '@dbops/core/accounts';
import { completeKeyPolicy } from '@dbops/core/accounts';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';

/** The owner's restrictions (docs/api-decisions.md): beyond the spec's `name`, all optional. */
const policy = z
  .object({
    max_caller: z.enum(['human', 'agent']).optional(),
    max_guardrail: z.enum(['strict', 'moderate', 'permissive']).optional(),
    read_only: z.boolean().optional(),
    connection_ids: z.array(z.uuid()).min(1).max(1000).optional(),
    allow_opaque_functions: z.boolean().optional(),
  })
  .strict();

const body = z.object({ name: z.string().min(1).max(200), policy: policy.nullable().optional() });

/** POST /api/v1/api-keys: 201 with the raw key, shown this once. */
export const handler = defineHandler('api-keys-create', {
  body,
  async handle({ body, auth, container }) {
    return ok(await createApiKey(container.store, auth.userId, body.name, body.policy ? completeKeyPolicy(body.policy) : null), 201);
  },
});
