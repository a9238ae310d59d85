import type { JsonValue } from '../sql-execution/json-values';

/** A cell as markdown: pipes escaped, line breaks flattened, NULL spelled out. */
function cell(v: JsonValue): string {
  const text = v === null ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * A GitHub-flavoured markdown table of the rows followed by a row-count line; the line says
 * when the rows were cut at the cap. No rows: the header row alone and "0 rows.".
 */
export function markdownTable(columns: readonly string[], rows: readonly JsonValue[][], capped: boolean, cap: number): string {
  const header = `| ${columns.map((c) => cell(c)).join(' | ')} |`;
  const rule = `| ${columns.map(() => '---').join(' | ')} |`;
  const body = rows.map((r) => `| ${r.map(cell).join(' | ')} |`);
  const count = capped
    ? `${rows.length} rows shown; the result had more and was capped at ${cap} rows.`
    : `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}.`;
  return [header, rule, ...body, '', count].join('\n');
}
