import type pg from 'pg';
import { BATCH_KEY_TYPES, type BatchedStatement } from './batched-statement';

interface TargetRow {
  relkind: string | null;
  attnum: number | null;
  notnull: boolean | null;
  typname: string | null;
  typtype: string | null;
  unique_key: boolean;
  statement_trigger: string | null;
  rule: string | null;
  children: boolean;
}

/** pg_trigger.tgtype bits (PostgreSQL's TRIGGER_TYPE_ROW, _DELETE, _UPDATE) and pg_rewrite.ev_type of each statement kind. */
const TRIGGER_ROW = 1;
const EVENT = { UPDATE: { trigger: 16, rule: '2' }, DELETE: { trigger: 8, rule: '4' } } as const;

/**
 * Why the target database does not allow running the statement in ranges of its key, or null
 * when it does: the key must be NOT NULL and unique on its own (a valid unique index on exactly
 * that column, no predicate), of a type in {@link BATCH_KEY_TYPES} or an enum; no statement-level
 * trigger or rule may fire on the statement (it would fire once per batch instead of once), and a
 * table with inheritance children needs `ONLY` (the key is unique per table, not across them).
 * Read at the step's start, in the executor's session, so its search_path resolves the names.
 */
export async function batchTargetProblem(client: pg.Client, s: BatchedStatement): Promise<string | null> {
  const ev = EVENT[s.kind];
  const res = await client.query<TargetRow>(
    `SELECT c.relkind, a.attnum, a.attnotnull AS notnull, t.typname, t.typtype,
            EXISTS (SELECT 1 FROM pg_catalog.pg_index i
                     WHERE i.indrelid = c.oid AND i.indisunique AND i.indisvalid AND i.indpred IS NULL
                       AND i.indexprs IS NULL AND i.indnatts = 1 AND i.indkey[0] = a.attnum) AS unique_key,
            (SELECT g.tgname FROM pg_catalog.pg_trigger g
              WHERE g.tgrelid = c.oid AND NOT g.tgisinternal AND g.tgenabled <> 'D'
                AND (g.tgtype & ${TRIGGER_ROW}) = 0 AND (g.tgtype & $3) <> 0 LIMIT 1) AS statement_trigger,
            (SELECT r.rulename FROM pg_catalog.pg_rewrite r
              WHERE r.ev_class = c.oid AND r.rulename <> '_RETURN' AND r.ev_type = $4 LIMIT 1) AS rule,
            EXISTS (SELECT 1 FROM pg_catalog.pg_inherits h WHERE h.inhparent = c.oid) AS children
       FROM (SELECT pg_catalog.to_regclass($1) AS oid) r0
       LEFT JOIN pg_catalog.pg_class c ON c.oid = r0.oid
       LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attname = $2 AND a.attnum > 0 AND NOT a.attisdropped
       LEFT JOIN pg_catalog.pg_type t ON t.oid = a.atttypid`,
    [s.relation, s.key, ev.trigger, ev.rule],
  );
  const row = res.rows[0];
  if (!row?.relkind) return `table ${s.relation} does not exist`;
  if (row.relkind !== 'r' && row.relkind !== 'p') return `${s.relation} is not a table`;
  if (row.attnum === null) return `${s.relation} has no column ${s.key}`;
  if (!row.notnull) return `key column ${s.key} may be NULL (rows with a NULL key would fall in no batch)`;
  if (!row.unique_key) return `key column ${s.key} is not unique on its own (no valid unique index on exactly that column)`;
  if (!BATCH_KEY_TYPES.has(row.typname ?? '') && row.typtype !== 'e')
    return `key column ${s.key} is of type ${row.typname}, whose ranges dbops does not batch (integers, numeric, text, uuid, dates, timestamps, bytea and enums)`;
  if (row.statement_trigger) return `statement-level trigger ${row.statement_trigger} fires on ${s.kind}: batches would fire it once per batch instead of once`;
  if (row.rule) return `rule ${row.rule} rewrites ${s.kind} on ${s.relation}`;
  if (row.relkind === 'r' && row.children && !s.only)
    return `${s.relation} has inheritance children, whose keys are not unique with its own: write ${s.kind === 'UPDATE' ? 'UPDATE ONLY' : 'DELETE FROM ONLY'}, or batch each table`;
  return null;
}
