import { parse } from 'libpg-query';

/** A parse-tree node as libpg-query gives it: `{ NodeType: { ...fields } }`. */
export type PgNode = Record<string, unknown>;

/** One top-level statement of a request. */
export interface ParsedStatement {
  /** The node type of the statement, e.g. `SelectStmt`. */
  type: string;
  /** The statement's fields (the value under {@link type}). */
  node: Record<string, unknown>;
  /** The statement's own text, sliced out of the request (comments between statements dropped). */
  text: string;
  /** Character offset of {@link text} in the request, to map server error positions back. */
  offset: number;
}

/** The parser refused the text; `position` is 1-based in characters, like PostgreSQL's. */
export class SqlSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number | null,
  ) {
    super(message);
    this.name = 'SqlSyntaxError';
  }
}

interface RawStmt {
  stmt?: PgNode;
  stmt_location?: number;
  stmt_len?: number;
}

/** libpg-query counts bytes of UTF-8; JavaScript strings count UTF-16 units. */
function charIndex(utf8: Buffer, byteOffset: number): number {
  return utf8.subarray(0, byteOffset).toString('utf8').length;
}

/**
 * Splits a request into its statements with PostgreSQL 17's own parser. Comments and empty
 * statements (`;;`) disappear here, so nothing can hide behind them.
 */
export async function parseSql(sql: string): Promise<ParsedStatement[]> {
  let tree: { stmts?: RawStmt[] };
  try {
    tree = (await parse(sql)) as { stmts?: RawStmt[] };
  } catch (error) {
    const details = (error as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
    // Unlike statement locations (bytes), the error cursor is already counted in characters, 0-based.
    const cursor = details?.cursorPosition;
    const position = typeof cursor === 'number' && cursor >= 0 ? Math.min(cursor, sql.length) + 1 : null;
    throw new SqlSyntaxError(details?.message ?? (error instanceof Error ? error.message : 'syntax error'), position);
  }
  const utf8 = Buffer.from(sql, 'utf8');
  const out: ParsedStatement[] = [];
  for (const raw of tree.stmts ?? []) {
    if (!raw.stmt) continue;
    const [type, node] = Object.entries(raw.stmt)[0] as [string, Record<string, unknown>];
    const start = raw.stmt_location ?? 0;
    const end = raw.stmt_len ? start + raw.stmt_len : utf8.length;
    const slice = utf8.subarray(start, end).toString('utf8');
    const lead = slice.length - slice.trimStart().length;
    out.push({ type, node, text: slice.trim(), offset: charIndex(utf8, start) + lead });
  }
  return out;
}
