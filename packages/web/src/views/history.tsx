import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { endpoints } from '../api/endpoints';
import { formatMs, formatTime } from '../lib/format';
import { useAsync } from '../lib/use-async';
import { RequestOutcome } from '../report/request-outcome';
import { ErrorNote, Section } from './common';

/** The connection's migration requests, newest first (documented list route, docs/migration-execution.md). */
export function HistoryView({ connectionId }: { connectionId: string }) {
  const [state, load] = useAsync(endpoints.history);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => void load(connectionId), [connectionId]);
  return (
    <>
      <h1>History</h1>
      <Section title="Migration requests">
        <p>
          <button type="button" class="secondary" onClick={() => void load(connectionId)} disabled={state.busy}>
            Refresh
          </button>
        </p>
        <ErrorNote error={state.error} />
        {state.data?.length === 0 && <p class="muted">No migration has run on this connection yet.</p>}
        {state.data && state.data.length > 0 && (
          <table data-testid="history">
            <thead>
              <tr>
                <th scope="col">Submitted</th>
                <th scope="col">Outcome</th>
                <th scope="col">SQL</th>
                <th scope="col" class="num">
                  Took
                </th>
              </tr>
            </thead>
            <tbody>
              {state.data.map((r) => (
                <Fragment key={r.request_id}>
                  <tr>
                    <td>{formatTime(r.created_at)}</td>
                    <td>
                      <span class={`badge status-${r.status}`}>{r.status}</span>
                      {r.error && <span class="small"> {r.error.code}</span>}
                    </td>
                    <td>
                      <button
                        type="button"
                        class="link mono"
                        aria-expanded={open === r.request_id}
                        onClick={() => setOpen(open === r.request_id ? null : r.request_id)}
                      >
                        {r.sql.length > 80 ? `${r.sql.slice(0, 79)}…` : r.sql}
                      </button>
                    </td>
                    <td class="num">{r.result ? formatMs(r.result.execution_time_ms) : '-'}</td>
                  </tr>
                  {open === r.request_id && (
                    <tr class="detail">
                      <td colSpan={4}>
                        <pre class="sql">{r.sql}</pre>
                        <RequestOutcome request={r} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}
