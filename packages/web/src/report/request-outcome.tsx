import type { MigrationRequest } from '../api/types';
import { formatCount, formatMs, formatTime } from '../lib/format';
import { batchProgress } from '../lib/safe-plan';

const STEPS = ['pending', 'executing', 'completed'] as const;

/**
 * A request's status as steps, its progress text and a batched step's rows, and the catalog diff
 * or the error at the end. `hint: false` leaves the error's hint to the caller (a safe plan's
 * outcome shows it as the cleanup SQL).
 */
export function RequestOutcome({ request, hint = true }: { request: MigrationRequest; hint?: boolean }) {
  const rows = batchProgress(request);
  const failed = request.status === 'failed';
  const completed = request.status === 'completed';
  const reached = failed ? 1 : STEPS.indexOf(request.status as (typeof STEPS)[number]);
  return (
    <div class="outcome">
      <ol class="steps" aria-label="Request status">
        {STEPS.map((s, i) => (
          <li
            key={s}
            class={i < reached || completed ? 'done' : i === reached ? (failed ? 'done' : 'current') : failed && i === 2 ? 'failed' : ''}
            aria-current={i === reached ? 'step' : undefined}
          >
            {failed && i === 2 ? 'failed' : s}
          </li>
        ))}
      </ol>
      <p>
        Status: <strong data-testid="request-state">{request.status}</strong>
        {request.progress && <span class="muted"> · {request.progress}</span>}
      </p>
      {rows && (
        <div class="batch-progress">
          <label for={`rows-${request.request_id}`}>Batched step: rows done</label>
          <progress id={`rows-${request.request_id}`} max={rows.total} value={rows.done} />
          <span data-testid="batch-rows">
            {formatCount(rows.done)} of {formatCount(rows.total)} rows ({rows.percent}%)
          </span>
        </div>
      )}
      {request.result && (
        <div class="diff" data-testid="catalog-diff">
          <h4>Catalog changes ({formatMs(request.result.execution_time_ms)})</h4>
          <ul>
            {request.result.tables_added.map((t) => (
              <li key={`+${t}`} class="added">
                + table {t}
              </li>
            ))}
            {request.result.tables_removed.map((t) => (
              <li key={`-${t}`} class="removed">
                − table {t}
              </li>
            ))}
            {request.result.columns_added.map((c) => (
              <li key={`+${c.table}.${c.column}`} class="added">
                + column {c.table}.{c.column} <span class="muted">{c.type}</span>
              </li>
            ))}
            {request.result.tables_added.length + request.result.tables_removed.length + request.result.columns_added.length === 0 && (
              <li class="muted">No table or column added or removed (changes to constraints, indexes or data are not part of this diff).</li>
            )}
          </ul>
          <p class="small muted">
            Started {formatTime(request.started_at)}, completed {formatTime(request.completed_at)}.
          </p>
        </div>
      )}
      {request.error && (
        <div class="note error" role="alert">
          <p>
            <strong>{request.error.code}</strong> {request.error.message}
            {request.error.statement_index !== null && ` (statement ${request.error.statement_index})`}
          </p>
          {request.error.rolled_back && <p>The failing transaction was rolled back.</p>}
          {hint && request.error.hint && <p>{request.error.hint}</p>}
        </div>
      )}
    </div>
  );
}
