import { quoteIdent, quoteName } from '../pg/quote';
import type { Queryable } from '../store/store';
import { type CatalogState, diffCatalog } from './catalog-diff';

/** A safe plan's shadow column (before its swap) and the old column it renames aside (after it): `analysis/safe-plan/names.ts`. */
const SHADOW = /^dbops_new_/;
const OLD = /_dbops_old$/;

/**
 * What a failed run of a safe plan's expand/contract left on the target, in words with the SQL
 * that removes it; null when it left nothing of the kind. Read from the catalog: the columns the
 * run added that carry a dbops helper name, the `dbops_sync_` triggers on their tables and the
 * functions those triggers call (or, once the swap dropped the trigger, the `dbops_sync_`
 * functions no trigger calls), and the foreign keys of other tables added on a shadow key (a
 * referenced key's plan). Dropping a shadow column drops its indexes and constraints too.
 */
export async function expandContractLeftovers(db: Queryable, before: CatalogState, after: CatalogState): Promise<string | null> {
  const added = diffCatalog(before, after).columns_added.filter((c) => SHADOW.test(c.column) || OLD.test(c.column));
  if (!added.length) return null;
  const parts: string[] = [];
  for (const table of [...new Set(added.map((c) => c.table))]) {
    const dot = table.indexOf('.');
    const [schema, name] = dot < 0 ? ['public', table] : [table.slice(0, dot), table.slice(dot + 1)];
    const qualified = quoteName(schema, name);
    const helpers = await db.query<{ trigger: string | null; fn: string }>(
      `SELECT t.tgname AS trigger, p.oid::regprocedure::text AS fn
         FROM pg_catalog.pg_proc p
         JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
         LEFT JOIN pg_catalog.pg_trigger t ON t.tgfoid = p.oid AND t.tgrelid = pg_catalog.to_regclass($1)
        WHERE n.nspname = $2 AND p.proname LIKE 'dbops\\_sync\\_%'
          AND (t.oid IS NOT NULL OR NOT EXISTS (SELECT 1 FROM pg_catalog.pg_trigger u WHERE u.tgfoid = p.oid))
        ORDER BY 1, 2`,
      [qualified, schema],
    );
    // Other tables' foreign keys a referenced key's plan added on the shadow key: they would block its drop.
    const references = await db.query<{ child: string; name: string }>(
      `SELECT c.conrelid::regclass::text AS child, c.conname AS name
         FROM pg_catalog.pg_constraint c
        WHERE c.contype = 'f' AND c.confrelid = pg_catalog.to_regclass($1) AND c.conrelid <> c.confrelid AND c.conname LIKE 'dbops\\_new\\_%'
        ORDER BY 1, 2`,
      [qualified],
    );
    const columns = added.filter((c) => c.table === table).map((c) => c.column);
    const sql = [
      ...references.rows.map((r) => `ALTER TABLE ${r.child} DROP CONSTRAINT IF EXISTS ${quoteIdent(r.name)};`),
      ...helpers.rows.filter((h) => h.trigger).map((h) => `DROP TRIGGER ${quoteIdent(h.trigger!)} ON ${qualified};`),
      ...columns.map((c) => `ALTER TABLE ${qualified} DROP COLUMN ${quoteIdent(c)};`),
      ...helpers.rows.map((h) => `DROP FUNCTION ${h.fn};`),
    ];
    const swapped = columns.some((c) => OLD.test(c));
    parts.push(
      swapped
        ? `The expand/contract swap of ${table} is done (its column has the new type); left in place: ${columns.join(', ')}${helpers.rows.length ? ` and ${helpers.rows.map((h) => h.fn).join(', ')}` : ''}. Finish with: ${sql.join(' ')}`
        : `Left in place by the expand/contract plan on ${table}: column ${columns.join(', ')}${helpers.rows.length ? `, ${helpers.rows.map((h) => (h.trigger ? `trigger ${h.trigger} calling ${h.fn}` : h.fn)).join(', ')}` : ''} (the column's indexes and constraints go with it). To start over, remove them: ${sql.join(' ')} Then analyze the migration again.`,
    );
  }
  return parts.join(' ');
}
