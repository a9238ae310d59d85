import type { ServiceSettings } from '@dbops/core/config';
import type { IndexSuggester, IndexSuggestionInput, SuggestedIndex } from '@dbops/core/optimization';
import OpenAI from 'openai';

/** Settings of the OpenAI index suggester. */
export interface OpenAiIndexSuggesterOptions {
  /** `DBOPS_OPENAI_API_KEY`. */
  apiKey: string;
  /** `DBOPS_OPENAI_BASE_URL`; unset uses the OpenAI API. Any OpenAI-compatible endpoint works. */
  baseURL?: string;
  /** `DBOPS_OPTIMIZE_MODEL`, default `gpt-4o-mini`. */
  model?: string;
  /** Request timeout, default 20 s: the optimization must not hang on the model. */
  timeoutMs?: number;
}

const SYSTEM = [
  'You are a PostgreSQL performance engineer. Propose B-tree indexes that would lower the cost of the given query.',
  'Use only tables and columns listed in the schema. Order index columns: equality predicates, then one range predicate, then ORDER BY columns.',
  'Propose partial indexes (where) only for constant predicates of the query, expression keys only for expressions the query filters on.',
  'Answer JSON: {"indexes": [{"table": "schema.table", "columns": ["col", "lower(email)", "created_at DESC"], "where": null, "reason": "..."}]}. At most 5.',
].join(' ');

/** Compact schema text the model reads: columns, indexes and row counts of the query's tables. */
export function describeTables(input: IndexSuggestionInput): string {
  return input.tables
    .map((t) => {
      const cols = [...t.columns.values()].map((c) => `${c.name} ${c.dataType}${c.notNull ? ' not null' : ''}`).join(', ');
      const idx = t.indexes.map((i) => `${i.name}(${i.columns.join(', ')})${i.predicate ? ` where ${i.predicate}` : ''}`).join('; ') || 'none';
      return `${t.schema}.${t.name} (~${Math.round(t.rowEstimate)} rows): ${cols}\n  indexes: ${idx}`;
    })
    .join('\n');
}

/** Reads the model's JSON answer defensively: anything malformed is skipped, never thrown. */
export function parseSuggestions(content: string | null | undefined): SuggestedIndex[] {
  if (!content) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(content);
  } catch {
    return [];
  }
  const list = (doc as { indexes?: unknown }).indexes;
  if (!Array.isArray(list)) return [];
  const out: SuggestedIndex[] = [];
  for (const item of list.slice(0, 5)) {
    const i = item as Record<string, unknown>;
    if (typeof i.table !== 'string' || !Array.isArray(i.columns) || !i.columns.every((c) => typeof c === 'string')) continue;
    out.push({
      table: i.table,
      columns: i.columns as string[],
      where: typeof i.where === 'string' && i.where.trim() ? i.where : null,
      reason: typeof i.reason === 'string' && i.reason.trim() ? i.reason.slice(0, 500) : 'Suggested by the language model from the query and schema.',
    });
  }
  return out;
}

/** The `llm_suggested` port backed by an OpenAI-compatible chat completions API in JSON mode. */
export class OpenAiIndexSuggester implements IndexSuggester {
  readonly name = 'openai';
  private readonly client: OpenAI;
  private readonly model: string;

  constructor(options: OpenAiIndexSuggesterOptions) {
    this.client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, timeout: options.timeoutMs ?? 20_000, maxRetries: 1 });
    this.model = options.model ?? 'gpt-4o-mini';
  }

  async suggest(input: IndexSuggestionInput): Promise<SuggestedIndex[]> {
    const docs = input.documents.map((d) => `[${d.document_filename}] ${d.excerpt}`).join('\n');
    const user = [
      `Query:\n${input.sql}`,
      `Schema:\n${describeTables(input)}`,
      `Current plan:\n${input.planText.slice(0, 6000)}`,
      docs ? `Business context:\n${docs.slice(0, 4000)}` : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    const res = await this.client.chat.completions.create({
      model: this.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: user },
      ],
    });
    return parseSuggestions(res.choices[0]?.message?.content);
  }
}

/** The suggester from the service's settings, or undefined when no API key is configured. */
export function openAiIndexSuggesterFromSettings(settings: Pick<ServiceSettings, 'openai' | 'optimization'>): OpenAiIndexSuggester | undefined {
  const { apiKey, baseUrl } = settings.openai;
  if (!apiKey) return undefined;
  return new OpenAiIndexSuggester({ apiKey, baseURL: baseUrl, model: settings.optimization.model });
}
