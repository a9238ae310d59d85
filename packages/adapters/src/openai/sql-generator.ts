import type { ServiceSettings } from '@dbops/core/config';
import type { GeneratedSql, GenerationRequest, SqlGenerator } from '@dbops/core/text-to-sql';
import { buildUserPrompt, SYSTEM_PROMPT } from '@dbops/core/text-to-sql';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';

/** The structured output every model reply must match (spec section 3, step 3). */
export const GeneratedSqlSchema = z.object({
  sql: z.string(),
  confidence: z.number(),
  reasoning: z.string(),
  referenced_tables: z.array(z.string()),
  warnings: z.array(z.string()),
});

/** Settings of {@link OpenAiSqlGenerator}. */
export interface OpenAiSqlGeneratorOptions {
  /** `DBOPS_LLM_API_KEY` (or `OPENAI_API_KEY`). */
  apiKey: string;
  /** `DBOPS_LLM_BASE_URL` (or `OPENAI_BASE_URL`); unset uses the OpenAI API. Any OpenAI-compatible server works. */
  baseURL?: string;
  /** `DBOPS_LLM_MODEL`, default `gpt-4o-mini`. */
  model?: string;
  /** Per-request timeout, default 30 s (`DBOPS_LLM_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** A client to use instead of building one (tests). */
  client?: Pick<OpenAI, 'chat'>;
}

/**
 * An OpenAI-compatible chat model behind the SqlGenerator port, asked for a JSON reply that
 * matches {@link GeneratedSqlSchema} (`response_format: json_schema`, strict). Temperature 0,
 * so the same question over the same schema gives the same SQL as far as the server allows.
 */
export class OpenAiSqlGenerator implements SqlGenerator {
  readonly name: string;
  readonly model: string;
  readonly #client: Pick<OpenAI, 'chat'>;

  constructor(options: OpenAiSqlGeneratorOptions) {
    this.model = options.model ?? 'gpt-4o-mini';
    this.name = `openai:${this.model}`;
    this.#client = options.client ?? new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, timeout: options.timeoutMs ?? 30_000, maxRetries: 1 });
  }

  async generate(request: GenerationRequest): Promise<GeneratedSql> {
    const completion = await this.#client.chat.completions.parse({
      model: this.model,
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: buildUserPrompt(request) },
      ],
      response_format: zodResponseFormat(GeneratedSqlSchema, 'generated_sql'),
    });
    const message = completion.choices[0]?.message;
    if (message?.refusal) throw new Error(`the model refused: ${message.refusal}`);
    const parsed = message?.parsed;
    if (!parsed) throw new Error('the model returned no structured output');
    return parsed;
  }
}

/** The generator from the service's settings; throws when no API key is set. */
export function openAiSqlGeneratorFromSettings(llm: ServiceSettings['llm']): OpenAiSqlGenerator {
  if (!llm.apiKey) throw new Error('DBOPS_LLM=openai needs DBOPS_LLM_API_KEY (or OPENAI_API_KEY)');
  return new OpenAiSqlGenerator({ apiKey: llm.apiKey, baseURL: llm.baseUrl, model: llm.model, timeoutMs: llm.timeoutMs });
}
