import type { MigrationRequest, SafePlan, SafePlanStep, StatementReport } from '../api/types';
import { lockInfo } from './lock-modes';
import { layoutTimeline, type Timeline, type TimelineItem } from './lock-timeline';
import { statementEnds } from './script-statements';

/** Lane of a plan step whose SQL names none of the original's tables. */
export const UNNAMED_TABLE = '(table not named)';

const unqualified = (table: string): string => (table.includes('.') ? table.slice(table.lastIndexOf('.') + 1) : table).replace(/^"|"$/g, '');

/** The identifiers of a SQL text as PostgreSQL folds them: bare words lower-cased, quoted ones kept. */
function identifiers(sql: string): string[] {
  return [...sql.matchAll(/"((?:[^"]|"")+)"|[A-Za-z_][A-Za-z0-9_$]*/g)].map((m) => (m[1] !== undefined ? m[1].replace(/""/g, '"') : m[0].toLowerCase()));
}

/**
 * The table a plan step works on, for its lane on the timeline: a step carries no table of its
 * own, so it is the first of the original statements' tables its SQL names (the only one, when
 * the original touches a single table and the step names none of them).
 */
export function stepTable(step: Pick<SafePlanStep, 'sql'>, tables: readonly string[]): string {
  const known = [...new Set(tables.filter((t) => t !== ''))];
  const words = identifiers(step.sql);
  let best: { table: string; at: number } | null = null;
  for (const table of known) {
    const at = words.indexOf(unqualified(table));
    if (at >= 0 && (best === null || at < best.at)) best = { table, at };
  }
  return best?.table ?? (known.length === 1 ? known[0]! : UNNAMED_TABLE);
}

/** Milliseconds the items hold a table lock that stops writes (SHARE and stronger). */
export function writeBlockingMs(items: readonly Pick<TimelineItem, 'lock_type' | 'lock_duration_ms'>[]): number {
  return items.reduce((sum, s) => sum + (lockInfo(s.lock_type).severity >= 3 ? Math.max(0, s.lock_duration_ms) : 0), 0);
}

export interface TimelineComparison {
  /** The length of both axes: the longer of the two, so equal widths mean equal times. */
  scaleMs: number;
  original: Timeline;
  plan: Timeline;
  originalWriteBlockingMs: number;
  planWriteBlockingMs: number;
}

/** The original's and the plan's lock timelines on one time scale, for a side-by-side view. */
export function compareTimelines(statements: readonly StatementReport[], plan: Pick<SafePlan, 'steps'>): TimelineComparison {
  const tables = statements.filter((s) => s.lock_type !== 'NONE').map((s) => s.table);
  const steps: TimelineItem[] = plan.steps.map((s) => ({
    index: s.index,
    lock_type: s.lock_type,
    lock_duration_ms: s.lock_duration_ms,
    table: stepTable(s, tables),
  }));
  const total = (items: readonly TimelineItem[]): number => items.reduce((sum, s) => sum + Math.max(0, s.lock_duration_ms), 0);
  const scaleMs = Math.max(total(statements), total(steps));
  return {
    scaleMs,
    original: layoutTimeline(statements, { scaleMs }),
    plan: layoutTimeline(steps, { scaleMs }),
    originalWriteBlockingMs: writeBlockingMs(statements),
    planWriteBlockingMs: writeBlockingMs(steps),
  };
}

/**
 * The plan step a statement of `combined_script` belongs to, from the executor's
 * `error.statement_index` (which counts every statement of the script: the leading
 * `SET lock_timeout`, and each transactional step's BEGIN and COMMIT). A step's BEGIN and COMMIT
 * belong to it; the SET belongs to none (null), as does an index past the script.
 */
export function stepOfStatement(plan: Pick<SafePlan, 'steps' | 'combined_script'>, statementIndex: number): number | null {
  const script = plan.combined_script;
  const ends = statementEnds(script);
  const end = ends[statementIndex];
  if (end === undefined) return null;
  const text = script
    .slice(statementIndex === 0 ? 0 : ends[statementIndex - 1]! + 1, end)
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, '')
    .trim()
    .toUpperCase();
  let from = 0;
  let previous: number | null = null;
  for (const step of plan.steps) {
    const at = script.indexOf(step.sql, from);
    if (at < 0) return null;
    const stop = at + step.sql.length;
    if (end < at) return /^(BEGIN|START TRANSACTION)\b/.test(text) ? step.index : /^(COMMIT|END)\b/.test(text) ? previous : null;
    if (end <= stop) return step.index;
    previous = step.index;
    from = stop;
  }
  return /^(COMMIT|END)\b/.test(text) ? previous : null;
}

export interface BatchProgress {
  done: number;
  total: number;
  /** 0 to 100, whole. */
  percent: number;
}

/** A batched step's progress from the request's status, or null when no batched step has started. */
export function batchProgress(request: Pick<MigrationRequest, 'rows_done' | 'rows_total'>): BatchProgress | null {
  if (request.rows_total === null || request.rows_done === null) return null;
  const total = Math.max(0, request.rows_total);
  const done = Math.min(Math.max(0, request.rows_done), total);
  return { done, total, percent: total === 0 ? 100 : Math.floor((done / total) * 100) };
}

/** The 0-based script statement the request's progress names (`statement 3 of 9: ...`, 1-based), or null. */
export function progressStatement(progress: string | null): number | null {
  const m = /^statement (\d+) of \d+/.exec(progress ?? '');
  return m ? Number(m[1]) - 1 : null;
}
