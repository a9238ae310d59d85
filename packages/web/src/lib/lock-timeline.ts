import type { StatementReport } from '../api/types';
import { lockInfo } from './lock-modes';

/** One statement's lock drawn on its table's lane. Positions are percentages of the width. */
export interface TimelineBar {
  statementIndex: number;
  lock: string;
  severity: number;
  startMs: number;
  durationMs: number;
  left: number;
  width: number;
}

export interface TimelineLane {
  table: string;
  bars: TimelineBar[];
}

export interface Timeline {
  totalMs: number;
  lanes: TimelineLane[];
}

/** What the timeline needs of a statement (or of a safe plan's step). */
export type TimelineItem = Pick<StatementReport, 'index' | 'lock_type' | 'lock_duration_ms' | 'table'>;

/** Narrowest bar, in percent, so that an instant lock is still visible and clickable. */
const MIN_WIDTH = 1.5;

/**
 * Lays the statements end to end on a time axis (they run one after another) and gives each
 * table a lane: the reviewer sees which table is locked, how hard and for how long. Statements
 * that lock no table share the "(no table lock)" lane.
 */
export function layoutTimeline(statements: readonly TimelineItem[], options: { scaleMs?: number } = {}): Timeline {
  const totalMs = statements.reduce((sum, s) => sum + Math.max(0, s.lock_duration_ms), 0);
  // A shared scale (two timelines side by side) keeps the shorter one short on screen too.
  const scale = Math.max(totalMs, options.scaleMs ?? 0);
  const lanes = new Map<string, TimelineBar[]>();
  let at = 0;
  statements.forEach((s, i) => {
    const duration = Math.max(0, s.lock_duration_ms);
    const left = scale > 0 ? (at / scale) * 100 : (i / statements.length) * 100;
    const rawWidth = scale > 0 ? (duration / scale) * 100 : 100 / statements.length;
    const width = Math.min(100 - Math.min(left, 100 - MIN_WIDTH), Math.max(MIN_WIDTH, rawWidth));
    const lane = s.lock_type === 'NONE' || !s.table ? '(no table lock)' : s.table;
    const bar: TimelineBar = {
      statementIndex: s.index,
      lock: s.lock_type,
      severity: lockInfo(s.lock_type).severity,
      startMs: at,
      durationMs: duration,
      left: Math.min(left, 100 - MIN_WIDTH),
      width,
    };
    lanes.set(lane, [...(lanes.get(lane) ?? []), bar]);
    at += duration;
  });
  return { totalMs, lanes: [...lanes].map(([table, bars]) => ({ table, bars })) };
}
