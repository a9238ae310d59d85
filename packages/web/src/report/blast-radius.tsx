import type { AffectedTable, ImpactChain } from '../api/types';
import { layoutBlastGraph, NODE_H, NODE_W } from '../lib/blast-graph';
import { Section } from '../views/common';

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The foreign-key blast radius: the graph, then the impact chains in words (the graph's text equivalent). */
export function BlastRadius({ affected, chains }: { affected: AffectedTable[]; chains: ImpactChain[] }) {
  const g = layoutBlastGraph(affected, chains);
  const at = new Map(g.nodes.map((n) => [n.id, n]));
  const cascades = affected.filter((a) => a.impact === 'cascade');
  return (
    <Section title="Blast radius" id="blast">
      {g.nodes.length === 0 ? (
        <p class="muted">No table is modified.</p>
      ) : (
        <div class="graph-wrap">
          <svg
            class="graph"
            viewBox={`0 0 ${g.width} ${g.height}`}
            width={g.width}
            height={g.height}
            role="img"
            aria-labelledby="blast-desc"
            data-testid="blast-graph"
          >
            <title id="blast-desc">
              {`Foreign-key graph: ${g.nodes.filter((n) => n.impact === 'direct').length} directly modified, ${cascades.length} reached through foreign keys`}
            </title>
            <defs>
              <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M 0 0 L 10 5 L 0 10 z" fill="#4b5563" />
              </marker>
            </defs>
            {g.edges.map((e) => {
              const a = at.get(e.from);
              const b = at.get(e.to);
              if (!a || !b) return null;
              const x1 = a.x + NODE_W;
              const y1 = a.y + NODE_H / 2;
              const x2 = b.x;
              const y2 = b.y + NODE_H / 2;
              const mx = (x1 + x2) / 2;
              return (
                <g key={`${e.from}->${e.to}`} class={`edge ${e.action ?? ''}`}>
                  <path d={`M ${x1} ${y1} C ${mx} ${y1}, ${mx} ${y2}, ${x2} ${y2}`} fill="none" marker-end="url(#arrow)" />
                  {e.action && (
                    <text x={mx} y={(y1 + y2) / 2 - 4} text-anchor="middle">
                      {e.action.replace(/_/g, ' ')}
                    </text>
                  )}
                </g>
              );
            })}
            {g.nodes.map((n) => (
              <g key={n.id} class={`node ${n.impact}`} data-table={n.id}>
                <rect x={n.x} y={n.y} width={NODE_W} height={NODE_H} rx="6" />
                <text x={n.x + 10} y={n.y + NODE_H / 2 + 5}>
                  {clip(n.id, 22)}
                </text>
              </g>
            ))}
          </svg>
        </div>
      )}
      <p class="small">
        <span class="swatch direct" /> modified by the migration <span class="swatch cascade" /> reached through foreign keys
      </p>
      {chains.length > 0 && (
        <>
          <h4>Impact chains</h4>
          <ul class="chains">
            {chains.map((c, i) => (
              <li key={i}>
                <code>{c.path.join(' → ')}</code> <span class="badge neutral">{c.action.replace(/_/g, ' ')}</span>{' '}
                <span class="muted small">
                  statement {c.statement_index}, depth {c.depth}
                </span>
                <div class="small">{c.description}</div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}
