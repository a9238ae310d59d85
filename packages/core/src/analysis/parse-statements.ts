import { loadModule, parseSync } from 'libpg-query';
import { AppError } from '../errors/app-error';
import type { AstNode } from './ast';

/** One statement of a migration: the original text and its parse tree. */
export interface ParsedStatement {
  index: number;
  /** Original text from the input, comments included, trimmed of surrounding whitespace. */
  sql: string;
  /** The wrapped statement node, e.g. `{AlterTableStmt: {...}}`. */
  stmt: AstNode;
  /** 1-based line of the statement's first character in the whole input. */
  line: number;
}

let loaded: Promise<void> | undefined;

/** Loads the WASM parser once per process. */
export const ensureParser = (): Promise<void> => (loaded ??= loadModule());

/**
 * Index of the top-level statement containing character `pos`: counts semicolons outside
 * quotes, dollar quotes and comments, since a failed parse gives no statement locations.
 */
export function statementIndexAt(sql: string, pos: number): number {
  let idx = 0;
  let i = 0;
  while (i < pos && i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      i = j + 1;
    } else if (c === '$') {
      const m = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
      if (m) {
        const end = sql.indexOf(m[0], i + m[0].length);
        i = end < 0 ? sql.length : end + m[0].length;
      } else i++;
    } else {
      if (c === ';') idx++;
      i++;
    }
  }
  return idx;
}

const lineAt = (sql: string, charPos: number): number => sql.slice(0, charPos).split('\n').length;

/**
 * Parses a migration with the PostgreSQL 17 parser and splits it on the parser's statement
 * locations (byte offsets into the UTF-8 text), so each statement keeps its original text.
 * A rejected input throws SQL_PARSE_ERROR (422) naming the statement index, line and message.
 */
export async function parseStatements(sql: string): Promise<ParsedStatement[]> {
  await ensureParser();
  return parseStatementsSync(sql);
}

/** {@link parseStatements} once {@link ensureParser} has resolved. */
export function parseStatementsSync(sql: string): ParsedStatement[] {
  let tree: { stmts?: { stmt: AstNode; stmt_location?: number; stmt_len?: number }[] };
  try {
    tree = parseSync(sql);
  } catch (error) {
    const e = error as Error & { sqlDetails?: { message: string; cursorPosition: number } };
    const pos = Math.max(0, e.sqlDetails?.cursorPosition ?? 0);
    const index = statementIndexAt(sql, pos);
    const line = lineAt(sql, pos);
    const message = e.sqlDetails?.message ?? e.message;
    throw new AppError('SQL_PARSE_ERROR', `Statement ${index} (line ${line}) could not be parsed: ${message}`, {
      details: { statement_index: index, line, parser_message: message },
    });
  }
  // Locations are byte offsets; in pure-ASCII text (the usual case) they are character offsets.
  const ascii = Buffer.byteLength(sql, 'utf8') === sql.length;
  const bytes = ascii ? null : Buffer.from(sql, 'utf8');
  const totalBytes = bytes ? bytes.length : sql.length;
  const out: ParsedStatement[] = [];
  // Statements come in text order, so lines are counted once, incrementally.
  let linePos = 0;
  let line = 1;
  for (const s of tree.stmts ?? []) {
    const start = s.stmt_location ?? 0;
    const end = s.stmt_len ? start + s.stmt_len : totalBytes;
    const raw = bytes ? bytes.subarray(start, end).toString('utf8') : sql.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const charStart = (bytes ? bytes.subarray(0, start).toString('utf8').length : start) + lead;
    if (charStart < linePos) {
      linePos = 0;
      line = 1;
    }
    for (let i = sql.indexOf('\n', linePos); i >= 0 && i < charStart; i = sql.indexOf('\n', i + 1)) line++;
    linePos = charStart;
    out.push({ index: out.length, sql: raw.trim(), stmt: s.stmt, line });
  }
  if (out.length === 0) throw new AppError('SQL_PARSE_ERROR', 'The migration contains no SQL statement', { details: { statement_index: 0, line: 1, parser_message: 'empty input' } });
  return out;
}
