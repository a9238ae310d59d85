import type { GeneratedSql, GenerationRequest, SqlGenerator } from '@dbops/core/text-to-sql';
import { OfflineSqlGenerator } from '@dbops/core/text-to-sql';
import { memoPer } from '@dbops/core/util';
import type { Container } from '../container';

/**
 * The SQL generator of this process: the offline schema-aware generator by default; an
 * OpenAI-compatible chat model when `DBOPS_LLM=openai` (`DBOPS_LLM_API_KEY` or
 * `OPENAI_API_KEY`, `DBOPS_LLM_BASE_URL` or `OPENAI_BASE_URL`, `DBOPS_LLM_MODEL`).
 * The SDK is loaded on first use so cold starts without it stay small.
 */
export const getSqlGenerator = memoPer<Container, SqlGenerator>((c) => {
  const llm = c.settings.llm;
  if (llm.provider === 'openai') {
    let loaded: Promise<SqlGenerator> | undefined;
    const load = (): Promise<SqlGenerator> => (loaded ??= import('@dbops/adapters/openai/sql-generator').then((m) => m.openAiSqlGeneratorFromSettings(llm)));
    return {
      name: `openai:${llm.model || 'gpt-4o-mini'}`,
      generate: async (request: GenerationRequest): Promise<GeneratedSql> => (await load()).generate(request),
    };
  }
  return new OfflineSqlGenerator({ answerThreshold: c.settings.textToSql.minConfidence });
});
