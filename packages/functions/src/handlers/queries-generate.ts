import { runTextToSql } from '@dbops/core/text-to-sql';
import { z } from 'zod';
import { defineHandler, uuidParam } from '../http/define-handler';
import { bare, ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';
import { getSqlGenerator } from '../runtime/ports/language-model';

/** Longest question accepted, in characters (the spec sets none; see docs/text-to-sql.md). */
const MAX_QUESTION_CHARS = 2_000;

const body = z.object({
  query: z.string().trim().min(1).max(MAX_QUESTION_CHARS),
  max_schema_chunks: z.number().int().min(1).max(20).default(5),
  max_doc_chunks: z.number().int().min(0).max(20).default(3),
});

/**
 * POST /api/v1/connections/{connection_id}/queries/generate: the text-to-SQL pipeline. A
 * failing pipeline step answers 422 `{success: false, data: <full result>, error: {code,
 * message}}`, so `markdown_output` and every other field are there on failure too.
 */
export const handler = defineHandler('queries-generate', {
  params: uuidParam('connection_id'),
  body,
  async handle({ body, params, auth, container }) {
    const outcome = await runTextToSql(domainDeps(container), getSqlGenerator(container), {
      userId: auth.userId,
      connectionId: params.connection_id,
      question: body.query,
      maxSchemaChunks: body.max_schema_chunks,
      maxDocChunks: body.max_doc_chunks,
    });
    if (outcome.failure) return bare({ success: false, data: outcome.result, error: outcome.failure }, 422);
    return ok(outcome.result);
  },
});
