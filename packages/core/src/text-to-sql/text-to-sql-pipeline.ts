import type { IntrospectionDeps } from '../introspection/introspect-connection';
import { correctionFeedback } from './correction-feedback';
import { executeReadOnly, ExecutionError, TEXT_TO_SQL_ROW_CAP, TEXT_TO_SQL_TIMEOUT_MS } from './execute-read-only';
import { checkReferences, type HallucinationReport } from './hallucination-check';
import type { FailedAttempt, GeneratedSql, SqlGenerator } from './language-model';
import { markdownTable } from './markdown-table';
import { retrieveContext } from './retrieve-context';
import { collectReferences } from './sql-references';
import type { TextToSqlFailureCode, TextToSqlOutcome, TextToSqlResult } from './text-to-sql-result';
import { validateSelect } from './validate-select';

/** Input of {@link runTextToSql}; limits as validated by the route (spec section 4). */
export interface TextToSqlRequest {
  userId: string;
  connectionId: string;
  question: string;
  /** 1-20, default 5. */
  maxSchemaChunks: number;
  /** 0-20, default 3. */
  maxDocChunks: number;
}

/** Options mostly for tests and the benchmark. */
export interface TextToSqlOptions {
  timeoutMs?: number;
  rowCap?: number;
}

const clamp01 = (n: number): number => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

/** A model failure (network, HTTP status, unparseable output) as a message without internals. */
function generatorFailure(error: unknown, name: string): string {
  const status = (error as { status?: unknown }).status;
  return `The ${name} SQL generator failed${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${
    error instanceof Error ? error.message.slice(0, 300) : 'unknown error'
  }`;
}

/**
 * The six steps of spec section 3 in order: retrieval, prompt, generation, syntax validation
 * (terminal), hallucination check (one retry with feedback, then SCHEMA_VALIDATION_FAILED) and
 * read-only execution (terminal). A failing step does not throw: it returns the result with
 * every field filled and the failure code. Errors before the pipeline proper (unknown
 * connection, introspection) are thrown as AppErrors.
 */
export async function runTextToSql(
  deps: IntrospectionDeps,
  generator: SqlGenerator,
  request: TextToSqlRequest,
  options: TextToSqlOptions = {},
): Promise<TextToSqlOutcome> {
  const context = await retrieveContext(deps, request);
  const contextTables = context.tables.map((t) => t.table);
  const result: TextToSqlResult = {
    connection_id: request.connectionId,
    natural_language_query: request.question,
    sql: '',
    confidence: 0,
    reasoning: '',
    referenced_tables: [],
    warnings: [],
    sql_valid: false,
    hallucinated_tables: [],
    hallucinated_columns: [],
    schema_chunks_used: context.schemaChunksUsed,
    doc_chunks_used: context.docChunksUsed,
    execution_error: null,
    markdown_output: '',
  };
  const fail = (code: TextToSqlFailureCode, message: string, summary: string): TextToSqlOutcome => {
    result.markdown_output = summary;
    return { result, failure: { code, message } };
  };
  /** Warnings of the pipeline itself; each attempt's own warnings are added to them. */
  const notes: string[] = [];
  if (contextTables.length === 0) notes.push('No schema chunks were retrieved for this connection; introspect it again.');
  result.warnings = [...notes];

  const attempts: FailedAttempt[] = [];
  let report: HallucinationReport;
  for (;;) {
    let generated: GeneratedSql;
    try {
      generated = await generator.generate({
        question: request.question,
        tables: context.tables,
        enums: context.enums,
        values: context.values,
        documents: context.documents,
        attempts,
      });
    } catch (error) {
      const message = generatorFailure(error, generator.name);
      result.warnings.push(message);
      return fail('SQL_GENERATION_FAILED', message, `**SQL generation failed.** ${message}`);
    }
    result.sql = generated.sql.trim();
    result.confidence = clamp01(generated.confidence);
    result.reasoning = generated.reasoning;
    result.referenced_tables = [...generated.referenced_tables];
    result.warnings = [...notes, ...generated.warnings];

    const syntax = await validateSelect(result.sql);
    if (!syntax.ok) {
      result.warnings.push(syntax.reason);
      // A generator that declines (no SQL) says why, e.g. the offline generator below its
      // confidence threshold lists what it did not understand: that is the useful summary.
      const why =
        result.sql === '' && generated.warnings[0]
          ? generated.warnings[0]
          : `${syntax.reason} Try rephrasing it with the names of the tables and columns you mean.`;
      return fail('SQL_GENERATION_FAILED', syntax.reason, `**No valid SQL could be generated for this question.** ${why}`);
    }
    report = checkReferences(collectReferences(syntax.tree), contextTables);
    result.hallucinated_tables = report.hallucinated_tables;
    result.hallucinated_columns = report.hallucinated_columns;
    if (report.hallucinated_tables.length === 0 && report.hallucinated_columns.length === 0) break;
    const unknown = [...report.hallucinated_tables, ...report.hallucinated_columns].join(', ');
    if (attempts.length === 0) {
      attempts.push({ sql: result.sql, error: correctionFeedback(report, contextTables) });
      notes.push(`Attempt 1 referenced names outside the retrieved schema (${unknown}); retried with corrective feedback.`);
      continue;
    }
    const message = `The SQL references names outside the retrieved schema even after one retry: ${unknown}.`;
    result.warnings.push(message);
    return fail(
      'SCHEMA_VALIDATION_FAILED',
      message,
      `**The generated SQL uses names that are not in this database's schema** (${unknown}), even after one corrected retry. Check that the question is about tables of this connection, introspect it again if the schema changed, or raise max_schema_chunks.`,
    );
  }
  result.sql_valid = true;
  if (result.confidence < 0.5) result.warnings.push('Low confidence: the retrieved schema may not cover this question.');

  try {
    const rows = await executeReadOnly(deps, request.userId, request.connectionId, result.sql, options);
    const cap = options.rowCap ?? TEXT_TO_SQL_ROW_CAP;
    if (rows.capped) result.warnings.push(`The result was capped at ${cap} rows.`);
    result.markdown_output = markdownTable(rows.columns, rows.rows, rows.capped, cap);
    return { result, failure: null };
  } catch (error) {
    if (!(error instanceof ExecutionError)) throw error;
    const seconds = (options.timeoutMs ?? TEXT_TO_SQL_TIMEOUT_MS) / 1000;
    result.execution_error = error.message;
    return fail(
      'EXECUTION_FAILED',
      `The SQL passed validation but failed on the database: ${error.message}`,
      `**The query failed on the database:** ${error.message}${error.sqlstate ? ` (SQLSTATE ${error.sqlstate})` : ''}. It ran read-only with a ${seconds} s timeout and was rolled back; nothing was changed.`,
    );
  }
}
