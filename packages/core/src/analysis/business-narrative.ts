import type { RankedDocumentChunk } from '../context/document-context';
import { blockedOperations, lockRank } from './lock-modes';
import type { AffectedTable, BusinessNarrative, StatementReport } from './types';

const verbs: [RegExp, string][] = [
  [/^CREATE_TABLE/, 'creates table'],
  [/^DROP_TABLE/, 'drops table'],
  [/^ALTER_TABLE_ADD_COLUMN/, 'adds a column to'],
  [/^ALTER_TABLE_DROP_COLUMN/, 'drops a column of'],
  [/^ALTER_TABLE_ALTER_COLUMN_TYPE/, 'changes a column type of'],
  [/INDEX/, 'changes indexes of'],
  [/^ALTER_TABLE/, 'alters'],
  [/^RENAME/, 'renames objects of'],
  [/^(UPDATE|DELETE|INSERT|MERGE|TRUNCATE)/, 'changes data of'],
];

// Statement types are a small fixed set: what the narrative says of each is worked out once per
// type, not matched against the patterns again for every statement of every analysis.
const verbByType = new Map<string, string | undefined>();
const verbOf = (type: string): string | undefined => {
  if (!verbByType.has(type)) verbByType.set(type, verbs.find(([re]) => re.test(type))?.[1]);
  return verbByType.get(type);
};

const removesDataByType = new Map<string, boolean>();
const removesData = (type: string): boolean => {
  let out = removesDataByType.get(type);
  if (out === undefined) removesDataByType.set(type, (out = /^(DROP_TABLE|TRUNCATE|DELETE|UPDATE)/.test(type) || type.includes('DROP_COLUMN')));
  return out;
};

/** One plain-language sentence per kind of change, then the main risk. */
export function narrativeSummary(statements: readonly StatementReport[], affected: readonly AffectedTable[], maxScore: number, category: string): string {
  const parts = new Map<string, Set<string>>();
  for (const s of statements) {
    if (!s.table) continue;
    const verb = verbOf(s.statement_type);
    if (!verb) continue;
    (parts.get(verb) ?? parts.set(verb, new Set()).get(verb)!).add(s.table);
  }
  const changes = [...parts].map(([v, t]) => `${v} ${[...t].join(', ')}`).join('; ');
  // The first statement with the highest score (what a stable sort by score would put first).
  let top: StatementReport | undefined;
  for (const s of statements) if (!top || s.risk_score > top.risk_score) top = s;
  const cascade = affected.filter((a) => a.impact === 'cascade').length;
  const risk = top
    ? ` The riskiest step is statement ${top.index} (${top.statement_type}${top.table ? ` on ${top.table}` : ''}, ${top.lock_type} for ~${Math.round(top.lock_duration_ms)} ms), overall risk ${maxScore}/100 (${category}).`
    : '';
  const fk = cascade ? ` ${cascade} more table(s) are affected through foreign keys.` : '';
  return `This migration has ${statements.length} statement(s)${changes ? ` and ${changes}` : ''}.${risk}${fk}`;
}

/** Day-to-day operations on the touched tables that the migration disturbs, derived from the locks. */
export function affectedProcesses(statements: readonly StatementReport[]): string[] {
  const out = new Set<string>();
  for (const s of statements) {
    if (!s.table || lockRank(s.lock_type) < lockRank('SHARE')) continue;
    const b = blockedOperations(s.lock_type);
    const what = b.reads ? 'Reads and writes of' : 'Writes to';
    out.add(`${what} ${s.table} (statement ${s.index}, ~${Math.round(s.lock_duration_ms)} ms)`);
  }
  for (const s of statements) {
    if (removesData(s.statement_type)) out.add(`Anything reading data of ${s.table} that the migration removes or changes (statement ${s.index})`);
  }
  return [...out];
}

/** The business narrative; citations come from uploaded documents when there are any. */
export function businessNarrative(
  statements: readonly StatementReport[],
  affected: readonly AffectedTable[],
  maxScore: number,
  category: string,
  ranked: readonly RankedDocumentChunk[],
): BusinessNarrative {
  // Cite only chunks that name an affected table, so the summary's claim below holds.
  const chunks = ranked.filter((c) => (c.mentioned_tables?.length ?? 0) > 0);
  let summary = narrativeSummary(statements, affected, maxScore, category);
  const processes = affectedProcesses(statements);
  if (chunks.length) {
    const files = [...new Set(chunks.map((c) => c.document_filename))];
    summary += ` Business documents (${files.join(', ')}) mention the affected tables; see the citations.`;
    for (const c of chunks.slice(0, 3)) processes.push(`Documented in ${c.document_filename}: ${c.excerpt.slice(0, 160).replace(/\s+/g, ' ').trim()}`);
  }
  return {
    summary,
    affected_processes: processes,
    citations: chunks.map((c) => ({ document_filename: c.document_filename, excerpt: c.excerpt, relevance: Math.round(c.relevance * 1000) / 1000 })),
    schema_only: chunks.length === 0,
  };
}
