import type { StatementReport } from '../api/types';
import { formatMs } from '../lib/format';
import { layoutTimeline, type Timeline } from '../lib/lock-timeline';
import { lockInfo } from '../lib/lock-modes';
import { Section } from '../views/common';

/** The lanes of a laid-out timeline; `noun` names a bar ("Statement", "Step") in its label. */
export function TimelineChart({ timeline, label, noun = 'Statement' }: { timeline: Timeline; label: string; noun?: string }) {
  return (
    <div class="timeline" role="list" aria-label={label}>
      {timeline.lanes.map((lane) => (
        <div class="lane" role="listitem" key={lane.table}>
          <span class="lane-name">{lane.table}</span>
          <div class="lane-track">
            {lane.bars.map((b) => (
              <span
                key={b.statementIndex}
                class={`bar sev${b.severity}`}
                style={{ left: `${b.left}%`, width: `${b.width}%` }}
                title={`${noun} ${b.statementIndex}: ${b.lock} for ${formatMs(b.durationMs)}: ${lockInfo(b.lock).blocks}`}
                aria-label={`${noun} ${b.statementIndex}: ${b.lock} on ${lane.table} for ${formatMs(b.durationMs)}, from ${formatMs(b.startMs)}`}
                role="img"
              >
                {b.width > 8 ? `#${b.statementIndex}` : ''}
              </span>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

export function TimelineLegend() {
  return (
    <ul class="legend small" aria-label="Legend">
      <li>
        <span class="bar sev0" /> reads and writes continue
      </li>
      <li>
        <span class="bar sev2" /> schema changes and maintenance wait
      </li>
      <li>
        <span class="bar sev3" /> writes wait
      </li>
      <li>
        <span class="bar sev4" /> everything waits, reads too
      </li>
    </ul>
  );
}

/** Locks across the migration: one lane per table, statements in order on a time axis. */
export function LockTimeline({ statements }: { statements: StatementReport[] }) {
  const t = layoutTimeline(statements);
  return (
    <Section title="Lock timeline" id="timeline">
      <p class="muted small">
        Estimated total {formatMs(t.totalMs)}. Each bar is a statement holding a table lock; darker means more traffic blocked. Bars are at least a sliver wide
        so instant locks stay visible.
      </p>
      <TimelineChart timeline={t} label="Locks by table" />
      <TimelineLegend />
    </Section>
  );
}
