import type { RankedDocumentChunk } from '../../context/document-context';
import type { LiveCatalog } from '../live-catalog';
import type { RewriteContext, RewriteRule } from '../rewrite-rules/rewrite-context';
import { checkStatement } from '../statement-check';
import { catalogOf, table } from './fixtures';

/** customers(id pk, email, region, bio) / orders(id pk, customer_id NOT NULL, created_at, qty) / events(customer_id NULL). */
export const shopCatalog = (): LiveCatalog =>
  catalogOf(
    table(
      'customers',
      5000,
      { id: true, email: true, region: true, bio: false },
      { indexes: [{ name: 'customers_pkey', columns: ['id'], unique: true, predicate: null, method: 'btree' }] },
    ),
    table(
      'orders',
      60_000,
      { id: true, customer_id: true, status: true, created_at: true, qty: true },
      { indexes: [{ name: 'orders_pkey', columns: ['id'], unique: true, predicate: null, method: 'btree' }] },
    ),
    table('events', 30_000, { id: true, customer_id: false }),
  );

/** Runs one rule on `sql` and returns the rewritten SQL texts. */
export async function rewrite(rule: RewriteRule, sql: string, documents: RankedDocumentChunk[] = []): Promise<string[]> {
  const checked = await checkStatement(sql);
  const ctx: RewriteContext = { sql, stmt: checked.stmt, kind: checked.kind, paramCount: checked.paramCount, catalog: shopCatalog(), documents };
  return (await rule(ctx)).map((c) => c.rewritten_sql);
}
