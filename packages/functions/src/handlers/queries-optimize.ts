import type { IndexSuggester } from '@dbops/core/optimization';
import { OfflineIndexSuggester } from '@dbops/core/optimization';
import { optimizeOnConnection } from '@dbops/core/optimization';
import { optimizationSettings } from '@dbops/core/optimization';
import { memoPer } from '@dbops/core/util';
import { z } from 'zod';
import { defineHandler, uuidParam } from '../http/define-handler';
import { keyPolicyOf } from '../http/key-policy';
import { bare } from '../http/responses';
import type { Container } from '../runtime/container';
import { domainDeps } from '../runtime/domain-deps';

const body = z.object({ sql: z.string().min(1).max(100_000) });

/** `?analyze=true|false` (also 1/0); absent means false. */
const query = z.object({
  analyze: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

/** The index suggester: OpenAI when `DBOPS_INDEX_SUGGESTER=openai` and a key is set, else offline patterns. */
const getSuggester = memoPer<Container, Promise<IndexSuggester>>(async (c) => {
  if (optimizationSettings(c.settings).suggester === 'openai') {
    const { openAiIndexSuggesterFromSettings } = await import('@dbops/adapters/openai/index-suggester');
    const openai = openAiIndexSuggesterFromSettings(c.settings);
    if (openai) return openai;
  }
  return new OfflineIndexSuggester();
});

/** POST /api/v1/connections/{connection_id}/queries/optimize: the bare optimization result. */
export const handler = defineHandler('queries-optimize', {
  params: uuidParam('connection_id'),
  body,
  query,
  async handle({ body, params, query, auth, container }) {
    const { result } = await optimizeOnConnection(domainDeps(container), {
      userId: auth.userId,
      connectionId: params.connection_id,
      sql: body.sql,
      analyze: query.analyze,
      suggester: await getSuggester(container),
      allowOpaque: keyPolicyOf(auth)?.allow_opaque_functions ?? false,
    });
    return bare(result);
  },
});
