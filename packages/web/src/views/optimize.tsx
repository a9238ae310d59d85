import { useState } from 'preact/hooks';
import { endpoints } from '../api/endpoints';
import { formatCount, formatMs } from '../lib/format';
import { type PlanView, planView } from '../lib/plan-tree';
import { useAsync } from '../lib/use-async';
import { CopyButton, ErrorNote, Section } from './common';

export function OptimizeView({ connectionId }: { connectionId: string }) {
  const [sql, setSql] = useState('');
  const [analyze, setAnalyze] = useState(false);
  const [state, run] = useAsync(endpoints.optimize);
  const r = state.data;
  return (
    <>
      <h1>Query optimization</h1>
      <section class="card" aria-labelledby="q-h">
        <h3 id="q-h">Query</h3>
        <form
          class="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void run(connectionId, sql, analyze);
          }}
        >
          <label for="query-sql">SQL query</label>
          <textarea id="query-sql" rows={6} spellcheck={false} required value={sql} onInput={(e) => setSql((e.currentTarget as HTMLTextAreaElement).value)} />
          <div class="row">
            <label class="check">
              <input type="checkbox" checked={analyze} onChange={(e) => setAnalyze((e.currentTarget as HTMLInputElement).checked)} /> Run EXPLAIN ANALYZE
              (executes the query for real timings)
            </label>
            <button type="submit" disabled={state.busy}>
              {state.busy ? 'Optimizing…' : 'Optimize'}
            </button>
          </div>
        </form>
        <ErrorNote error={state.error} />
      </section>
      {r && (
        <>
          <Section title="Execution plan" id="plan">
            <p class="muted small">
              Total cost {r.execution_plan.total_cost.toFixed(2)}
              {r.execution_plan.analyzed ? ' · analyzed (real timings)' : ' · estimates only'}. Highlighted nodes do at least 30% of the work on their own.
            </p>
            <ul class="plan" role="tree" aria-label="Execution plan" data-testid="plan-tree">
              <PlanNodeView v={planView(r.execution_plan.root, r.execution_plan.analyzed)} analyzed={r.execution_plan.analyzed} />
            </ul>
            <details>
              <summary>EXPLAIN text</summary>
              <pre class="sql">{r.execution_plan.raw_plan_text}</pre>
            </details>
          </Section>
          <div class="grid two">
            <Section title="Index recommendations" id="indexes">
              {r.index_recommendations.length === 0 && <p class="muted">No index would help this query.</p>}
              <ul class="recs">
                {r.index_recommendations.map((ix) => (
                  <li key={ix.create_sql}>
                    <pre class="sql">{ix.create_sql}</pre>
                    <div class="row">
                      <CopyButton text={ix.create_sql} label="Copy" />
                      <span class="badge neutral">{ix.detection_method.replace(/_/g, ' ')}</span>
                      {ix.cost_before !== undefined && ix.cost_after != null && (
                        <span class="gain">
                          cost {ix.cost_before.toFixed(0)} → {ix.cost_after.toFixed(0)}
                        </span>
                      )}
                    </div>
                    <p>{ix.reason}</p>
                    <ul class="small">
                      {ix.benefits.map((b) => (
                        <li key={b}>{b}</li>
                      ))}
                      <li>Storage: {ix.estimated_storage_impact}</li>
                      <li>Writes: {ix.write_overhead_warning}</li>
                    </ul>
                  </li>
                ))}
              </ul>
            </Section>
            <Section title="Rewrites" id="rewrites">
              {r.alternatives.length === 0 && <p class="muted">No rewrite found.</p>}
              <ol class="recs">
                {r.alternatives.map((a) => (
                  <li key={a.rank}>
                    <p>
                      <span class="gain">{a.estimated_improvement}</span> {a.explanation}
                    </p>
                    <pre class="sql">{a.rewritten_sql}</pre>
                  </li>
                ))}
              </ol>
            </Section>
          </div>
        </>
      )}
    </>
  );
}

function PlanNodeView({ v, analyzed }: { v: PlanView; analyzed: boolean }) {
  const n = v.node;
  return (
    <li role="treeitem" aria-expanded={v.children.length > 0 ? true : undefined} class={v.hot ? 'hot' : ''}>
      <div class="plan-node">
        <strong>{n.node_type}</strong>
        {n.relation_name && <code> on {n.relation_name}</code>}
        {n.index_name && <span class="muted"> using {n.index_name}</span>}
        <span class="plan-figures">
          cost {n.total_cost.toFixed(2)} · rows {formatCount(n.plan_rows)}
          {analyzed &&
            n.actual_total_time !== undefined &&
            ` · actual ${formatMs(n.actual_total_time)} × ${n.actual_loops ?? 1}, rows ${formatCount(n.actual_rows ?? 0)}`}
          {' · '}
          {Math.round(v.share * 100)}% of the work
        </span>
        {v.hot && <span class="badge high">hot</span>}
        {(n.filter ?? n.index_cond ?? n.hash_cond) && <div class="small muted">{n.filter ?? n.index_cond ?? n.hash_cond}</div>}
      </div>
      {v.children.length > 0 && (
        <ul role="group">
          {v.children.map((c, i) => (
            <PlanNodeView key={i} v={c} analyzed={analyzed} />
          ))}
        </ul>
      )}
    </li>
  );
}
