import PgQueryModule, { type PgQueryWasm } from 'libpg-query/wasm/libpg-query.js';
import type { AstNode, ParseTree } from './ast';

// libpg-query's WebAssembly module, driven directly rather than through the package's
// `parseSync`: that wrapper copies the SQL into wasm memory and the JSON tree out of it one
// character at a time in JavaScript, which cost `dbops lint` about a fifth of its parse time on
// lemmy's 342 migrations (docs/benchmarks.md, #19). Here the copies are TextEncoder.encodeInto and
// a TextDecoder over the heap, both native. The calls and struct layouts are the ones the
// package's own wrapper (wasm/index.cjs, generated for this very module) uses.
let wasm: PgQueryWasm | undefined;
let loaded: Promise<void> | undefined;

/**
 * Loads the WASM parser (PostgreSQL 17's own grammar) once per process. `compiled`: its
 * WebAssembly module, already compiling (the CLI's bundle starts that before its other code
 * loads); the first call decides.
 */
export const ensureParser = (compiled?: Promise<object>): Promise<void> =>
  (loaded ??= loadModule(compiled).then((m) => {
    wasm = m;
  }));

/** V8's WebAssembly API: the ES2023 lib does not declare it as a value. */
const webAssembly = (globalThis as unknown as { WebAssembly: { instantiate(module: object, imports: object): Promise<object> } }).WebAssembly;

/** The glue's module, instantiated from `compiled` when given. */
async function loadModule(compiled: Promise<object> | undefined): Promise<PgQueryWasm> {
  if (!compiled) return PgQueryModule();
  const module = await compiled;
  // The glue waits for its instance with no way to fail: a failed instantiation ends the wait here.
  return new Promise<PgQueryWasm>((resolve, reject) => {
    PgQueryModule({
      instantiateWasm(imports, receive) {
        webAssembly.instantiate(module, imports).then(receive, reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

/** True once {@link ensureParser} has resolved, so synchronous code may parse. */
export const parserReady = (): boolean => wasm !== undefined;

/** The parser refused the text. `position` is 1-based in characters, like PostgreSQL's own. */
export class SqlSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number | null,
  ) {
    super(message);
    this.name = 'SqlSyntaxError';
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The NUL-terminated UTF-8 string at `ptr` in wasm memory. */
function heapString(m: PgQueryWasm, ptr: number): string {
  const heap = m.HEAPU8;
  return decoder.decode(heap.subarray(ptr, heap.indexOf(0, ptr)));
}

/** Parses once {@link ensureParser} has resolved; throws {@link SqlSyntaxError}. */
export function parseTreeSync(sql: string): ParseTree {
  const m = wasm;
  if (!m) throw new Error('the SQL parser is not loaded: await ensureParser() first');
  // As libpg-query's own wrapper: an input of whitespace only is refused before the parser.
  if (!/\S/.test(sql)) throw new SqlSyntaxError('Query cannot be empty', null);
  const size = Buffer.byteLength(sql, 'utf8') + 1;
  const input = m._malloc(size);
  let result = 0;
  try {
    const { written } = encoder.encodeInto(sql, m.HEAPU8.subarray(input, input + size - 1));
    m.HEAPU8[input + written] = 0;
    result = m._wasm_parse_query_raw(input);
    if (!result) throw new Error('the SQL parser could not allocate its result');
    // struct PgQueryParseResult { char *parse_tree; char *stderr_buffer; PgQueryError *error; }
    const tree = m.getValue(result, 'i32');
    const error = m.getValue(result + 8, 'i32');
    if (error) {
      // struct PgQueryError { char *message; char *funcname; char *filename; int lineno; int cursorpos; char *context; }
      const message = m.getValue(error, 'i32');
      const cursorpos = m.getValue(error + 16, 'i32');
      // Unlike statement locations (bytes), the error cursor is counted in characters, 1-based (0: none).
      const cursor = cursorpos > 0 ? cursorpos - 1 : 0;
      throw new SqlSyntaxError(message ? m.UTF8ToString(message) : 'Unknown error', Math.min(cursor, sql.length) + 1);
    }
    if (!tree) throw new Error('the SQL parser returned no tree');
    return JSON.parse(heapString(m, tree)) as ParseTree;
  } finally {
    m._free(input);
    if (result) m._wasm_free_parse_result(result);
  }
}

/** Parses with the real PostgreSQL parser; throws {@link SqlSyntaxError}. */
export async function parseTree(sql: string): Promise<ParseTree> {
  await ensureParser();
  return parseTreeSync(sql);
}

/** True when `sql` parses. */
export async function parsesCleanly(sql: string): Promise<boolean> {
  try {
    await parseTree(sql);
    return true;
  } catch {
    return false;
  }
}

/** One top-level statement with its own text, cut at the parser's own locations. */
export interface SqlStatement {
  index: number;
  /** The statement's text from the input, trimmed (comments inside it kept). */
  sql: string;
  /** The wrapped node, e.g. `{AlterTableStmt: {...}}`. */
  stmt: AstNode;
  /** Its node kind, e.g. `AlterTableStmt`. */
  kind: string;
  /** Character offset of {@link sql} in the input, to map server error positions back. */
  offset: number;
  /** 1-based line of the statement's first character. */
  line: number;
  /** 1-based column (in characters) of the statement's first character. */
  column: number;
}

/**
 * Cuts a parsed input into its statements. Locations are UTF-8 byte offsets; they are turned
 * into character offsets and lines incrementally, in one pass over the text, so the cost is
 * linear in the input (a request of 100,000 statements is one walk, not 100,000).
 */
export function statementsOf(sql: string, tree: ParseTree): SqlStatement[] {
  const ascii = Buffer.byteLength(sql, 'utf8') === sql.length;
  const bytes = ascii ? null : Buffer.from(sql, 'utf8');
  const totalBytes = bytes ? bytes.length : sql.length;
  const out: SqlStatement[] = [];
  let bytePos = 0;
  let charPos = 0;
  let linePos = 0;
  let line = 1;
  for (const s of tree.stmts ?? []) {
    if (!s.stmt) continue;
    const start = s.stmt_location ?? 0;
    const end = s.stmt_len ? start + s.stmt_len : totalBytes;
    if (bytes && start >= bytePos) {
      charPos += bytes.subarray(bytePos, start).toString('utf8').length;
      bytePos = start;
    }
    const charStart = bytes ? charPos : start;
    const raw = bytes ? bytes.subarray(start, end).toString('utf8') : sql.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const textStart = charStart + lead;
    for (let i = sql.indexOf('\n', linePos); i >= 0 && i < textStart; i = sql.indexOf('\n', i + 1)) line++;
    linePos = textStart;
    let kind = '';
    for (const k in s.stmt) {
      kind = k;
      break;
    }
    // lastIndexOf stops at the line's start, so this stays linear in the input.
    const column = textStart - sql.lastIndexOf('\n', textStart - 1);
    out.push({ index: out.length, sql: raw.trim(), stmt: s.stmt, kind, offset: textStart, line, column });
  }
  return out;
}

/** Parses and cuts an input into its statements; throws {@link SqlSyntaxError}. */
export async function splitStatements(sql: string): Promise<SqlStatement[]> {
  return statementsOf(sql, await parseTree(sql));
}

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
      const m = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64));
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
