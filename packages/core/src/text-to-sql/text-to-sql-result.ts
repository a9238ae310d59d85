/** The spec's Text-to-SQL result (section 2); every field is present on success and failure. */
export interface TextToSqlResult {
  connection_id: string;
  natural_language_query: string;
  sql: string;
  confidence: number;
  reasoning: string;
  referenced_tables: string[];
  warnings: string[];
  sql_valid: boolean;
  hallucinated_tables: string[];
  hallucinated_columns: string[];
  schema_chunks_used: number;
  doc_chunks_used: number;
  execution_error: string | null;
  markdown_output: string;
}

/** Pipeline failure codes of spec section 7. */
export type TextToSqlFailureCode = 'SCHEMA_VALIDATION_FAILED' | 'SQL_GENERATION_FAILED' | 'EXECUTION_FAILED';

/** What the pipeline answers: the result, and the failure when a step ended it. */
export interface TextToSqlOutcome {
  result: TextToSqlResult;
  failure: { code: TextToSqlFailureCode; message: string } | null;
}
