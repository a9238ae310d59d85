import type { ColumnValueSample, TableInfo } from '../introspection/schema-snapshot';
import type { GenerationRequest } from './language-model';
import { questionWords } from './offline/words';
import { findValueMatches } from './value-matches';

/** Values listed per column in the prompt; the ones the question names come first. */
const PROMPT_VALUES_PER_COLUMN = 25;

/** The fixed instructions of every language-model request. */
export const SYSTEM_PROMPT = [
  'You translate questions into one PostgreSQL SELECT statement over the schema you are given.',
  'Rules:',
  '- Output exactly one SELECT (WITH ... SELECT is fine). Never INSERT, UPDATE, DELETE, MERGE, DDL, SELECT INTO or FOR UPDATE.',
  '- Use only the tables and columns listed in the schema; qualify columns with the table name or alias.',
  '- Column values listed under a table are real values of that column: compare with them exactly as written, joining the table that holds them.',
  '- Prefer explicit JOINs along the listed foreign keys. Return at most the rows the question asks for.',
  '- confidence: 1.0 when every table and column the question needs is listed; 0.5-0.9 when you made assumptions; below 0.5 when the schema does not cover the question (then say so in warnings).',
  '- referenced_tables: schema-qualified names of the tables you used. warnings: schema gaps and ambiguities.',
].join('\n');

function describeValues(t: TableInfo, values: readonly ColumnValueSample[], named: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const v of values) {
    if (v.schema !== t.schema || v.table !== t.name) continue;
    const first = [...v.values.filter((x) => named.has(x)), ...v.values.filter((x) => !named.has(x))].slice(0, PROMPT_VALUES_PER_COLUMN);
    const more = v.values.length - first.length;
    out.push(`  VALUES ${v.column}: ${first.map((x) => `'${x.replaceAll("'", "''")}'`).join(', ')}${more > 0 ? ` (and ${more} more)` : ''}`);
  }
  return out;
}

function describeTable(t: TableInfo, similarity: number, viaForeignKey: boolean): string {
  const lines = [
    `TABLE ${t.schema}.${t.name}${viaForeignKey ? ' (joined by foreign key)' : ` (similarity ${similarity.toFixed(3)})`}${t.comment ? ` -- ${t.comment}` : ''}`,
  ];
  for (const c of t.columns) {
    const flags = [c.nullable ? '' : 'NOT NULL', t.primary_key?.includes(c.name) ? 'PRIMARY KEY' : ''].filter(Boolean).join(' ');
    lines.push(`  ${c.name} ${c.data_type}${flags ? ` ${flags}` : ''}${c.comment ? ` -- ${c.comment}` : ''}`);
  }
  for (const fk of t.foreign_keys) {
    lines.push(`  FOREIGN KEY (${fk.columns.join(', ')}) REFERENCES ${fk.referenced_schema}.${fk.referenced_table} (${fk.referenced_columns.join(', ')})`);
  }
  return lines.join('\n');
}

/**
 * Step 2 of the pipeline: the user message with the question, the retrieved tables (with their
 * similarity, columns, keys and enum values), the business documents and every earlier failed
 * attempt with the reason it was rejected.
 */
export function buildUserPrompt(request: GenerationRequest): string {
  const parts = [`Question: ${request.question}`, '', 'Schema:'];
  const values = request.values ?? [];
  const named = new Set(findValueMatches(questionWords(request.question), values).flatMap((m) => m.holders.map((h) => h.value)));
  for (const t of request.tables)
    parts.push([describeTable(t.table, t.similarity, t.via_foreign_key === true), ...describeValues(t.table, values, named)].join('\n'));
  const usedTypes = new Set(request.tables.flatMap((t) => t.table.columns.map((c) => c.udt_name)));
  const enums = request.enums.filter((e) => usedTypes.has(e.name));
  if (enums.length > 0) {
    parts.push('', 'Enum types:');
    for (const e of enums) parts.push(`  ${e.schema}.${e.name}: ${e.values.map((v) => `'${v}'`).join(', ')}`);
  }
  if (request.documents.length > 0) {
    parts.push('', 'Business documents:');
    for (const d of request.documents) parts.push(`--- ${d.filename} (relevance ${d.relevance.toFixed(3)})`, d.excerpt);
  }
  if (request.attempts.length > 0) {
    parts.push('', 'Earlier attempts were rejected; do not repeat their mistakes:');
    request.attempts.forEach((a, i) => parts.push(`Attempt ${i + 1}:`, a.sql, `Rejected because: ${a.error}`));
  }
  return parts.join('\n');
}
