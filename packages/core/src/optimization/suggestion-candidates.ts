import { columnRefFields } from './ast-sql';
import type { IndexCandidate, IndexKey } from './index-candidate';
import type { SuggestedIndex } from './index-suggester';
import { findTable, type LiveCatalog } from './live-catalog';
import { parseTree, walkAst } from '../pg/index';

/** Parses one expression and checks it reads only `columns` and holds no subquery; null when not. */
async function safeExpression(text: string, columns: Set<string>): Promise<boolean> {
  try {
    const parsed = await parseTree(`SELECT ${text}`);
    const sel = parsed.stmts[0]!.stmt.SelectStmt as { targetList?: unknown[]; fromClause?: unknown } | undefined;
    if (parsed.stmts.length !== 1 || !sel || sel.fromClause || sel.targetList?.length !== 1) return false;
    let ok = true;
    walkAst(sel.targetList, (v) => {
      if (v.SubLink || v.A_Star) ok = false;
      const f = columnRefFields(v);
      if (v.ColumnRef && (!f || f.length !== 1 || !columns.has(f[0]!))) ok = false;
    });
    return ok;
  } catch {
    return false;
  }
}

/**
 * Turns suggester output into candidates, dropping anything naming unknown tables or columns
 * or carrying SQL beyond a single expression, so model output never reaches the database unchecked.
 */
export async function candidatesFromSuggestions(suggestions: SuggestedIndex[], catalog: LiveCatalog): Promise<IndexCandidate[]> {
  const out: IndexCandidate[] = [];
  for (const s of suggestions) {
    const [schema, name] = s.table.includes('.') ? s.table.split('.', 2) : [undefined, s.table];
    const table = findTable(catalog, name!, schema);
    if (!table || s.columns.length === 0 || s.columns.length > 8) continue;
    const columns = new Set(table.columns.keys());
    const keys: IndexKey[] = [];
    let valid = true;
    for (const raw of s.columns) {
      const descending = /\s+desc$/i.test(raw);
      const text = raw.replace(/\s+(asc|desc)$/i, '').trim();
      if (columns.has(text)) keys.push({ column: text, isExpression: false, descending });
      else if (await safeExpression(text, columns)) keys.push({ column: text, isExpression: true, descending });
      else valid = false;
    }
    if (!valid || (s.where && !(await safeExpression(s.where, columns)))) continue;
    out.push({
      schema: table.schema,
      table: table.name,
      keys,
      predicate: s.where ?? null,
      rule: 'suggester',
      reason: s.reason,
      benefits: ['Suggested from the query text and schema context'],
      detection_method: 'llm_suggested',
    });
  }
  return out;
}
