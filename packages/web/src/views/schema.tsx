import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { endpoints } from '../api/endpoints';
import type { SnapshotSummary, TableDetail } from '../api/types';
import { formatBytes, formatCount, formatTime } from '../lib/format';
import { useAsync } from '../lib/use-async';
import { ErrorNote, Section } from './common';

/** The context query takes at most 100 table names per call. */
const BATCH = 100;

async function introspectAndDescribe(connectionId: string): Promise<{ summary: SnapshotSummary; tables: TableDetail[] }> {
  const summary = await endpoints.introspect(connectionId);
  const tables: TableDetail[] = [];
  for (let i = 0; i < summary.tables.length; i += BATCH) {
    tables.push(...(await endpoints.schemaDetails(connectionId, summary.tables.slice(i, i + BATCH))).tables);
  }
  return { summary, tables };
}

/**
 * Schema browser. Introspection (billable, 0.005 credits) takes a fresh snapshot and names its
 * tables; the free context query then gives sizes, row estimates, keys and indexes.
 */
export function SchemaView({ connectionId }: { connectionId: string }) {
  const [state, run] = useAsync(introspectAndDescribe);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const tables = (state.data?.tables ?? []).filter((t) => t.name.toLowerCase().includes(filter.toLowerCase()));

  return (
    <>
      <h1>Schema</h1>
      <Section title="Snapshot">
        <p>
          <button type="button" onClick={() => void run(connectionId)} disabled={state.busy}>
            {state.busy ? 'Introspecting…' : 'Introspect now'}
          </button>{' '}
          <span class="muted small">Billable (0.005 credits). Run it again after schema changes.</span>
        </p>
        <ErrorNote error={state.error} />
        {state.data && (
          <p aria-live="polite">
            {state.data.summary.table_count} relations, snapshot of {formatTime(state.data.summary.introspected_at)}.
          </p>
        )}
      </Section>
      {state.data && (
        <Section title="Tables">
          <label for="table-filter">Filter tables</label>
          <input id="table-filter" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
          <table class="schema">
            <thead>
              <tr>
                <th scope="col">Table</th>
                <th scope="col">Kind</th>
                <th scope="col" class="num">
                  Rows (estimate)
                </th>
                <th scope="col" class="num">
                  Size
                </th>
                <th scope="col">Foreign keys</th>
              </tr>
            </thead>
            <tbody>
              {tables.map((t) => (
                <Fragment key={t.name}>
                  <tr>
                    <th scope="row">
                      <button type="button" class="link" aria-expanded={open === t.name} onClick={() => setOpen(open === t.name ? null : t.name)}>
                        {t.name}
                      </button>
                    </th>
                    <td>{t.kind.replace(/_/g, ' ')}</td>
                    <td class="num">{formatCount(t.row_estimate)}</td>
                    <td class="num">{formatBytes(t.total_bytes)}</td>
                    <td>
                      {t.foreign_keys.map((fk) => (
                        <div key={fk.name} class="small">
                          ({fk.columns.join(', ')}) → {fk.referenced_schema}.{fk.referenced_table}{' '}
                          <span class="muted">on delete {fk.on_delete.replace(/_/g, ' ')}</span>
                        </div>
                      ))}
                      {t.referenced_by.length > 0 && <div class="small muted">referenced by {t.referenced_by.map((r) => r.table).join(', ')}</div>}
                    </td>
                  </tr>
                  {open === t.name && (
                    <tr class="detail">
                      <td colSpan={5}>
                        <ul class="columns">
                          {t.columns.map((c) => (
                            <li key={c.name}>
                              <code>{c.name}</code> {c.data_type}
                              {c.nullable ? '' : ' not null'}
                              {t.primary_key?.includes(c.name) ? ' (primary key)' : ''}
                            </li>
                          ))}
                        </ul>
                        {t.indexes.length > 0 && (
                          <p class="small muted">Indexes: {t.indexes.map((i) => `${i.name} (${formatBytes(i.size_bytes)})`).join(', ')}</p>
                        )}
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </Section>
      )}
    </>
  );
}
