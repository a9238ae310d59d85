import { describe, expect, it } from 'vitest';
import type { AnalysisReport, StatementReport } from '../api/types';
import { layoutBlastGraph } from './blast-graph';
import { findingsOf } from './findings';
import { layoutTimeline } from './lock-timeline';
import { planView } from './plan-tree';
import { tokenExpiry } from './token-expiry';

const stmt = (index: number, table: string, lock: StatementReport['lock_type'], ms: number): StatementReport => ({
  index,
  sql: `-- ${index}`,
  statement_type: 'ALTER_TABLE',
  table,
  lock_type: lock,
  lock_duration_ms: ms,
  risk_score: 10,
  risk_category: 'low',
  affected_tables: [],
  rollback: { statement_index: index, sql: '', reversible: true, warning: null },
  warnings: [],
});

describe('lock timeline', () => {
  it('puts statements end to end on one lane per table, with a minimum width', () => {
    const t = layoutTimeline([stmt(0, 'a', 'ACCESS EXCLUSIVE', 900), stmt(1, 'b', 'SHARE', 100), stmt(2, 'a', 'ROW EXCLUSIVE', 0)]);
    expect(t.totalMs).toBe(1000);
    expect(t.lanes.map((l) => l.table)).toEqual(['a', 'b']);
    const [first, third] = t.lanes[0]!.bars;
    expect(first).toMatchObject({ left: 0, width: 90, severity: 4 });
    expect(t.lanes[1]!.bars[0]).toMatchObject({ left: 90, width: 10, startMs: 900 });
    expect(third!.width).toBeGreaterThan(0);
    expect(third!.left + third!.width).toBeLessThanOrEqual(100);
  });

  it('spreads zero-duration statements evenly', () => {
    const t = layoutTimeline([stmt(0, 'a', 'NONE', 0), stmt(1, 'b', 'SHARE', 0)]);
    expect(t.lanes[0]).toMatchObject({ table: '(no table lock)' });
    expect(t.lanes[1]!.bars[0]).toMatchObject({ left: 50, width: 50 });
  });
});

describe('blast graph', () => {
  it('places cascade tables by depth and labels edges with the chain action', () => {
    const g = layoutBlastGraph(
      [
        { table: 'customers', impact: 'direct', cascade_path: null },
        { table: 'orders', impact: 'cascade', cascade_path: ['customers', 'orders'] },
        { table: 'items', impact: 'cascade', cascade_path: ['customers', 'orders', 'items'] },
      ],
      [{ statement_index: 0, root: 'customers', path: ['customers', 'orders', 'items'], via: ['f1', 'f2'], action: 'cascade', depth: 2, description: '' }],
    );
    expect(g.nodes.map((n) => [n.id, n.depth, n.impact])).toEqual([
      ['customers', 0, 'direct'],
      ['orders', 1, 'cascade'],
      ['items', 2, 'cascade'],
    ]);
    expect(g.edges).toEqual([
      { from: 'customers', to: 'orders', action: null },
      { from: 'orders', to: 'items', action: 'cascade' },
    ]);
    expect(g.nodes[2]!.x).toBeGreaterThan(g.nodes[1]!.x);
  });
});

describe('findings', () => {
  it('shows each structured finding with its place and safer alternative', () => {
    const finding = { rule: 'require-lock-timeout', severity: 'warning' as const, statement_index: 1, message: 'm', location: { line: 3, column: 1 } };
    const report = {
      findings: [
        { ...finding, safer: 'SET lock_timeout' },
        { ...finding, rule: 'x', severity: 'error' as const, safer: null },
      ],
    } as unknown as AnalysisReport;
    expect(findingsOf(report)).toEqual([
      {
        rule: 'require-lock-timeout',
        severity: 'warning',
        message: 'm',
        statementIndex: 1,
        saferAlternative: 'SET lock_timeout',
        location: 'line 3, column 1',
      },
      { rule: 'x', severity: 'error', message: 'm', statementIndex: 1, saferAlternative: null, location: 'line 3, column 1' },
    ]);
  });
});

describe('plan view', () => {
  it('marks the node doing most of the work on its own as hot', () => {
    const leaf = (cost: number) => ({ node_type: 'Seq Scan', relation_name: 't', total_cost: cost, plan_rows: 1, plan_width: 4, children: [] });
    const v = planView({ node_type: 'Hash Join', relation_name: null, total_cost: 100, plan_rows: 1, plan_width: 4, children: [leaf(80), leaf(10)] }, false);
    expect(v.selfCost).toBe(10);
    expect(v.children.map((c) => c.hot)).toEqual([true, false]);
    expect(v.hot).toBe(false);
  });
});

describe('token expiry', () => {
  const token = (exp: number) => `dbops_at.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.sig`;
  const now = new Date('2026-11-23T12:00:00Z');
  const at = now.getTime() / 1000;
  it('warns in the last ten minutes and says when it has expired', () => {
    expect(tokenExpiry(token(at + 3600), now)).toMatchObject({ state: 'valid', secondsLeft: 3600 });
    expect(tokenExpiry(token(at + 300), now)).toMatchObject({ state: 'expiring', secondsLeft: 300 });
    expect(tokenExpiry(token(at - 1), now)).toMatchObject({ state: 'expired', secondsLeft: 0 });
    expect(tokenExpiry('not-a-token', now)).toBeNull();
  });
});
