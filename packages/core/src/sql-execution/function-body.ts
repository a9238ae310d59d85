import { parseSync } from 'libpg-query';
import { type Classification, classifyStatement, type FunctionRef } from './classify-statement';
import { kindOfFunctionName } from './function-policy';
import { type Finding, type StatementKind, worseKind } from './guardrail';

/** What a function's body does, as far as its text tells. */
export interface BodyClassification {
  findings: Finding[];
  /** Functions the body calls by name: resolved in the catalog in turn. */
  functions: FunctionRef[];
  operators: string[];
  /** Relations it names (views hide functions too). */
  relations: string[];
  /** Why the body cannot be read (dynamic SQL, a compiled language), or null. */
  opaque: string | null;
}

const asRecord = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/**
 * Words of a procedural body and the kind of statement they start. A word scan, not a parse
 * (the project's parser has no PL/pgSQL grammar): it errs on the side of refusing, since a
 * comment or a string saying "update" counts as an UPDATE. String contents are scanned too, so
 * `EXECUTE 'COPY ...'` is seen.
 */
const WORD_KINDS: Record<string, StatementKind> = {
  insert: 'dml', update: 'dml', delete: 'dml', merge: 'dml',
  create: 'ddl', drop: 'ddl', alter: 'ddl', truncate: 'ddl', grant: 'ddl', revoke: 'ddl', comment: 'ddl', refresh: 'ddl', reassign: 'ddl',
  copy: 'other', program: 'other', listen: 'other', notify: 'other', vacuum: 'other', cluster: 'other', reindex: 'other', checkpoint: 'other',
  commit: 'other', rollback: 'other', savepoint: 'other', lock: 'other', discard: 'other', load: 'other',
};

/** PL/pgSQL (and other procedural) text: statement words, called names, operators, dynamic SQL. */
export function scanProceduralBody(text: string, where: string): BodyClassification {
  const lower = text.toLowerCase();
  const findings: Finding[] = [];
  const seenKinds = new Set<string>();
  for (const m of lower.matchAll(/[a-z_][a-z0-9_$]*/g)) {
    const word = m[0];
    const k = WORD_KINDS[word];
    if (k && !seenKinds.has(word)) {
      seenKinds.add(word);
      findings.push({ kind: k, what: `${word.toUpperCase()} in ${where}` });
    }
  }
  const names = new Set<string>();
  for (const m of lower.matchAll(/([a-z_][a-z0-9_$]*)\s*\(/g)) names.add(m[1]!);
  for (const name of names) {
    const byName = kindOfFunctionName(name);
    if (byName) findings.push({ kind: byName, what: `function ${name}() in ${where}` });
  }
  const operators = new Set<string>();
  for (const m of text.matchAll(/[+\-*/<>=~!@#%^&|`?]+/g)) operators.add(m[0]);
  const dynamic = /\bexecute\b/.test(lower);
  return {
    findings,
    functions: [...names].map((name) => ({ schema: null, name })),
    operators: [...operators],
    relations: [],
    opaque: dynamic ? `${where} runs dynamic SQL (EXECUTE)` : null,
  };
}

/** Statements of an SQL-language body, each classified like a top-level statement. */
export function classifySqlBody(text: string, where: string): BodyClassification {
  let stmts: Array<{ stmt?: Record<string, unknown> }>;
  try {
    stmts = ((parseSync(text) as { stmts?: Array<{ stmt?: Record<string, unknown> }> }).stmts ?? []);
  } catch {
    // Text the parser refuses (it may be for another server version): read it word by word.
    return scanProceduralBody(text, where);
  }
  const out: BodyClassification = { findings: [], functions: [], operators: [], relations: [], opaque: null };
  for (const raw of stmts) {
    if (!raw.stmt) continue;
    const [type, node] = Object.entries(raw.stmt)[0] as [string, Record<string, unknown>];
    mergeStatement(out, classifyStatement({ type, node }), where);
  }
  return out;
}

function mergeStatement(out: BodyClassification, c: Classification, where: string): void {
  for (const f of c.findings) if (f.kind !== 'select') out.findings.push({ kind: f.kind, what: `${f.what} in ${where}` });
  out.functions.push(...c.functions);
  out.operators.push(...c.operators);
  out.relations.push(...c.relations);
}

/** Statements of a BEGIN ATOMIC body, from the function's definition (`pg_get_functiondef`). */
export function classifyAtomicDefinition(definition: string, where: string): BodyClassification {
  let stmts: Array<{ stmt?: Record<string, unknown> }>;
  try {
    stmts = ((parseSync(definition) as { stmts?: Array<{ stmt?: Record<string, unknown> }> }).stmts ?? []);
  } catch {
    return scanProceduralBody(definition, where);
  }
  const out: BodyClassification = { findings: [], functions: [], operators: [], relations: [], opaque: null };
  const create = asRecord(stmts[0]?.stmt?.CreateFunctionStmt);
  const outer = asRecord(asRecord(create?.sql_body)?.List)?.items;
  for (const block of Array.isArray(outer) ? outer : []) {
    const inner = asRecord(asRecord(block)?.List)?.items;
    for (const stmt of Array.isArray(inner) ? inner : [block]) {
      const entry = asRecord(stmt) ? Object.entries(stmt as Record<string, unknown>)[0] : undefined;
      if (!entry || entry[0] === 'List') continue;
      mergeStatement(out, classifyStatement({ type: entry[0], node: entry[1] as Record<string, unknown> }), where);
    }
  }
  return out;
}

/** A body of `language` with source `source` (prosrc, or the definition of a BEGIN ATOMIC body). */
export function classifyFunctionBody(language: string, source: string, where: string): BodyClassification {
  if (language === 'sql') return classifySqlBody(source, where);
  if (language === 'plpgsql') return scanProceduralBody(source, where);
  return { findings: [], functions: [], operators: [], relations: [], opaque: `${where} is written in ${language}, which cannot be read` };
}

/**
 * Findings for a CREATE FUNCTION / PROCEDURE statement's own body: only what no level allows
 * (`other`), so an agent cannot plant, for example, a `COPY ... TO PROGRAM` wrapper to call later.
 * What the body does otherwise is judged when it is called.
 */
export function createdFunctionBodyFindings(node: Record<string, unknown>): Finding[] {
  let language = 'sql';
  let body: string | null = null;
  for (const o of Array.isArray(node.options) ? node.options : []) {
    const def = asRecord(asRecord(o)?.DefElem);
    if (!def) continue;
    if (def.defname === 'language') language = String(asRecord(asRecord(def.arg)?.String)?.sval ?? language).toLowerCase();
    if (def.defname === 'as') {
      const items = asRecord(asRecord(def.arg)?.List)?.items;
      const first = Array.isArray(items) ? asRecord(asRecord(items[0])?.String)?.sval : undefined;
      if (typeof first === 'string') body = first;
    }
  }
  if (body === null) return [];
  const c = classifyFunctionBody(language, body, 'the body of the created function');
  let worst: StatementKind = 'select';
  for (const f of c.findings) worst = worseKind(worst, f.kind);
  return worst === 'other' ? c.findings.filter((f) => f.kind === 'other') : [];
}
