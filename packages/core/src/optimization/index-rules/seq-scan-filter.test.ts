import { describe, expect, it } from 'vitest';
import { catalogOf, node, ruleContext, table } from '../testing/fixtures';
import { seqScanFilterRule } from './seq-scan-filter';

const orders = table('orders', 100_000, { id: true, status: true, created_at: true, shipped_at: false, customer_id: true });
const scan = (filter: string, rows = 10, extra = {}) =>
  node('Seq Scan', { 'Relation Name': 'orders', Schema: 'public', Alias: 'o', 'Total Cost': 2000, 'Plan Rows': rows, Filter: filter, ...extra });

describe('seqScanFilterRule', () => {
  it('orders equality before range and turns IS NULL into a partial predicate', async () => {
    const [c] = await seqScanFilterRule(
      ruleContext(scan(`((o.created_at > '2024-01-01'::timestamp) AND (o.status = 'x'::text) AND (o.shipped_at IS NULL))`), catalogOf(orders)),
    );
    expect(c!.keys.map((k) => k.column)).toEqual(['status', 'created_at']);
    expect(c!.predicate).toBe('shipped_at IS NULL');
  });

  it('unwraps casts of varchar columns and keeps expression keys', async () => {
    const [c] = await seqScanFilterRule(ruleContext(scan(`(lower((o.status)::text) = 'x'::text)`), catalogOf(orders)));
    expect(c!.keys).toEqual([{ column: 'lower(status::text)', isExpression: true }]);
  });

  it('ignores unselective filters, small tables and OR filters', async () => {
    expect(await seqScanFilterRule(ruleContext(scan(`(o.status = 'x'::text)`, 90_000), catalogOf(orders)))).toEqual([]);
    expect(await seqScanFilterRule(ruleContext(scan(`(o.status = 'x'::text)`), catalogOf({ ...orders, rowEstimate: 500 })))).toEqual([]);
    expect(await seqScanFilterRule(ruleContext(scan(`((o.status = 'x'::text) OR (o.id = 1))`), catalogOf(orders)))).toEqual([]);
  });

  it('uses actual rows removed when analyzed', async () => {
    const analyzed = scan(`(o.status = 'x'::text)`, 90_000, { 'Actual Rows': 5, 'Rows Removed by Filter': 99_995, 'Actual Loops': 1 });
    expect(await seqScanFilterRule(ruleContext(analyzed, catalogOf(orders), true))).toHaveLength(1);
  });
});
