import { type ParseTree, parseTree } from '../pg/index';
import { type ChunkDraft, type DocumentChunk, numberChunks } from './chunk';
import { chunkPlainText, splitLongText } from './chunk-text';
import { CHUNK_TARGET_CHARS } from './limits';

/**
 * The statements of a SQL script with their leading comments, cut at the locations PostgreSQL's
 * own parser reports (so semicolons inside strings, dollar quotes and comments are no trap),
 * or null when the script does not parse.
 */
export async function splitSqlStatements(text: string): Promise<string[] | null> {
  let stmts: ParseTree['stmts'];
  try {
    stmts = (await parseTree(text)).stmts ?? [];
  } catch {
    return null;
  }
  // Locations are byte offsets into the UTF-8 text.
  const bytes = Buffer.from(text, 'utf8');
  return stmts
    .map((s) => {
      const start = s.stmt_location ?? 0;
      const end = s.stmt_len === undefined || s.stmt_len === 0 ? bytes.length : start + s.stmt_len;
      return bytes.subarray(start, end).toString('utf8').trim();
    })
    .filter((s) => s !== '')
    .map((s) => (s.endsWith(';') ? s : `${s};`));
}

/** A short label for a statement: its first code line, e.g. "CREATE TABLE orders (". */
function statementLabel(statement: string): string | null {
  const line = statement.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('--'));
  return line ? line.trim().slice(0, 120) : null;
}

/**
 * SQL files chunked by statement: consecutive small statements share a chunk up to
 * {@link CHUNK_TARGET_CHARS}, a statement is never split unless it alone is over-long, and a
 * script that does not parse falls back to plain-text chunking.
 */
export async function chunkSql(text: string): Promise<DocumentChunk[]> {
  const statements = await splitSqlStatements(text);
  if (statements === null || statements.length === 0) return chunkPlainText(text);
  const drafts: ChunkDraft[] = [];
  let current: string[] = [];
  const flush = (): void => {
    if (current.length === 0) return;
    drafts.push({ heading: statementLabel(current[0]!), content: current.join('\n\n') });
    current = [];
  };
  for (const statement of statements) {
    if (statement.length > CHUNK_TARGET_CHARS) {
      flush();
      const label = statementLabel(statement);
      for (const piece of splitLongText(statement)) drafts.push({ heading: label, content: piece });
      continue;
    }
    if (current.join('\n\n').length + statement.length + 2 > CHUNK_TARGET_CHARS) flush();
    current.push(statement);
  }
  flush();
  return numberChunks(drafts);
}
