import { loadSettings } from '@dbops/core/config';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { GenerationRequest } from '@dbops/core/text-to-sql';
import { OpenAiSqlGenerator, openAiSqlGeneratorFromSettings } from './sql-generator';

const request: GenerationRequest = { question: 'How many orders?', tables: [], enums: [], documents: [], attempts: [] };

/** A client whose parse() answers with `message`. */
const clientReplying = (message: Record<string, unknown>) =>
  ({ chat: { completions: { parse: async () => ({ choices: [{ message }] }) } } }) as unknown as Pick<OpenAI, 'chat'>;

describe('OpenAiSqlGenerator', () => {
  it('returns the parsed structured output', async () => {
    const parsed = { sql: 'SELECT 1', confidence: 0.9, reasoning: 'r', referenced_tables: [], warnings: [] };
    const g = new OpenAiSqlGenerator({ apiKey: 'k', model: 'm', client: clientReplying({ parsed, refusal: null }) });
    expect(g.name).toBe('openai:m');
    expect(await g.generate(request)).toEqual(parsed);
  });

  it('fails on a refusal or a reply without structured output', async () => {
    await expect(new OpenAiSqlGenerator({ apiKey: 'k', client: clientReplying({ refusal: 'no', parsed: null }) }).generate(request)).rejects.toThrow(
      /refused: no/,
    );
    await expect(new OpenAiSqlGenerator({ apiKey: 'k', client: clientReplying({ parsed: null, refusal: null }) }).generate(request)).rejects.toThrow(
      /no structured output/,
    );
  });

  it('reads its settings from the service settings, with OPENAI_* fallbacks', () => {
    const from = (env: Record<string, string>) => openAiSqlGeneratorFromSettings(loadSettings(env).llm);
    expect(() => from({})).toThrow(/DBOPS_LLM_API_KEY/);
    expect(from({ OPENAI_API_KEY: 'k' }).model).toBe('gpt-4o-mini');
    expect(from({ DBOPS_LLM_API_KEY: 'k', DBOPS_LLM_MODEL: 'local-model' }).name).toBe('openai:local-model');
  });
});
