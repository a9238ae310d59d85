import type { ColumnValueSample, EnumInfo, TableInfo } from '../introspection/schema-snapshot';

/** A previous attempt of the same question and why it was rejected, fed back on a retry. */
export interface FailedAttempt {
  sql: string;
  error: string;
}

/** What the generator sees (spec section 3, step 2). */
export interface GenerationRequest {
  question: string;
  /** Retrieved tables (plus one foreign-key hop), best match first, with their similarity. */
  tables: ReadonlyArray<{ table: TableInfo; similarity: number; via_foreign_key?: boolean }>;
  enums: readonly EnumInfo[];
  /** Sampled distinct values of the context tables' low-cardinality text columns (none when sampling is off). */
  values?: readonly ColumnValueSample[];
  /** Business-document excerpts retrieved for the question. */
  documents: ReadonlyArray<{ filename: string; excerpt: string; relevance: number }>;
  attempts: readonly FailedAttempt[];
}

/** The structured output of spec section 3, step 3. */
export interface GeneratedSql {
  sql: string;
  /** 1.0 everything mapped; 0.5-0.9 assumptions made; below 0.5 the schema does not cover the question. */
  confidence: number;
  reasoning: string;
  referenced_tables: string[];
  warnings: string[];
}

/** Port: turns a question and its schema context into SQL. Offline generator or an OpenAI-compatible model. */
export interface SqlGenerator {
  readonly name: string;
  generate(request: GenerationRequest): Promise<GeneratedSql>;
}
