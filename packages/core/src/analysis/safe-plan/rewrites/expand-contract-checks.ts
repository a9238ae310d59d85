import type { ColumnInfo, SchemaSnapshot, TableInfo } from '../../../introspection/schema-snapshot';

const onTable = (table: TableInfo) => (o: { table_schema: string; table: string }) => o.table_schema === table.schema && o.table === table.name;

/** The trigger's events (`BEFORE INSERT OR UPDATE OF a ON ...` -> timing and events), from `pg_get_triggerdef`. */
function triggerEvents(definition: string): { before: boolean; insert: boolean; update: boolean } {
  const head = / (BEFORE|AFTER|INSTEAD OF) (.*?) ON /.exec(definition);
  const events = head?.[2] ?? '';
  return { before: head?.[1] === 'BEFORE', insert: /\bINSERT\b/.test(events), update: /\bUPDATE\b/.test(events) };
}

/**
 * Why the table cannot go through an expand/contract plan that adds a column, keeps it in step
 * with a trigger and backfills it with batched UPDATEs; null when nothing stands in the way. The
 * checks are conservative: each names something the plan could do differently from the original
 * (a user trigger fired by the backfill, a rule or policy rewriting its UPDATE, inheritance).
 */
export function tableProblem(table: TableInfo | undefined, snapshot: SchemaSnapshot): string | null {
  if (!table) return 'the table is not in the snapshot (introspect the connection again)';
  if (table.kind === 'partitioned_table') return `${table.name} is partitioned, and dbops does not run expand/contract across partitions`;
  if (table.kind !== 'table') return `${table.name} is not an ordinary table`;
  if (table.partition_of) return `${table.name} is a partition of ${table.partition_of}`;
  if (table.inherits?.length || snapshot.tables.some((t) => t.inherits?.some((p) => p.schema === table.schema && p.name === table.name)))
    return `${table.name} takes part in table inheritance, whose children would not get the new column in step`;
  const model = snapshot.model;
  const trigger = model?.triggers.find((t) => {
    if (!onTable(table)(t) || t.enabled === 'D') return false;
    const e = triggerEvents(t.definition);
    return e.update || (e.before && e.insert);
  });
  if (trigger)
    return `trigger ${trigger.name} fires on UPDATE or before INSERT: the backfill would fire it on every row, or it could change a row after the helper trigger copied it`;
  const rule = model?.rules.find(onTable(table));
  if (rule) return `rule ${rule.name} on ${table.name} could rewrite the backfill's UPDATE`;
  const policy = model?.policies.find(onTable(table));
  if (policy) return `row-level security policy ${policy.name} on ${table.name} could hide rows from the backfill or read the column`;
  return null;
}

/** A word of SQL text naming the column (unquoted or quoted), for definitions only kept as text. */
export function mentionsColumn(text: string | null | undefined, column: string): boolean {
  if (!text) return false;
  const plain = new RegExp(`(^|[^\\w$"])${column.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w$"])`, 'i');
  return plain.test(text) || text.includes(`"${column.replace(/"/g, '""')}"`);
}

/**
 * Why `column` of `table` cannot be swapped for a new one: a view, a generated column, another
 * table's foreign key or extended statistics that depend on the column itself (they would keep
 * pointing at the old column, or block its drop), or properties the plan does not carry over.
 * `referencedByOthers`: the caller rebuilds the other tables' foreign keys (`expand-contract-key.ts`).
 * An identity column is the caller's to judge (`identity-swap.ts`).
 */
export function columnProblem(
  table: TableInfo,
  column: ColumnInfo,
  snapshot: SchemaSnapshot,
  options: { referencedByOthers: boolean } = { referencedByOthers: false },
): string | null {
  const name = column.name;
  if (column.generated) return `${name} is a generated column`;
  const generated = table.columns.find((c) => c.generated && (c.generation_expression === undefined || mentionsColumn(c.generation_expression, name)));
  if (generated) return `generated column ${generated.name} is computed from ${name}`;
  const view = snapshot.view_dependencies.find((v) => v.table === `${table.schema}.${table.name}` && v.columns.includes(name));
  if (view) return `view ${view.view} reads ${name}; it would keep reading the old column, which the plan drops`;
  for (const other of options.referencedByOthers ? [] : snapshot.tables) {
    const fk = other.foreign_keys.find((f) => f.referenced_schema === table.schema && f.referenced_table === table.name && f.referenced_columns.includes(name));
    if (fk)
      return `foreign key ${fk.name} of ${other.name} references ${name}; dbops rebuilds the foreign keys that reference a column only when the type change is the column's only change`;
  }
  const stats = snapshot.model?.statistics.find((s) => onTable(table)(s) && mentionsColumn(s.definition, name));
  if (stats) return `extended statistics ${stats.name} cover ${name}`;
  if (column.collation) return `${name} has collation ${column.collation}, which the plan does not carry over`;
  if (column.statistics !== undefined || column.storage !== undefined)
    return `${name} has its own statistics target or storage, which the plan does not carry over`;
  const exclusion = table.constraints.find((c) => c.type === 'exclusion' && c.columns.includes(name));
  if (exclusion) return `exclusion constraint ${exclusion.name} covers ${name}`;
  const deferrable = table.constraints.find((c) => c.columns.includes(name) && /\bDEFERRABLE\b/.test(c.definition) && !/\bNOT DEFERRABLE\b/.test(c.definition));
  if (deferrable) return `constraint ${deferrable.name} on ${name} is DEFERRABLE, and USING INDEX does not make deferrable keys`;
  if (table.replica_identity === 'i' && table.indexes.some((i) => i.columns.includes(name))) return `${table.name}'s replica identity is an index on ${name}`;
  const clustered = table.indexes.find((i) => i.clustered && i.columns.includes(name));
  if (clustered) return `${table.name} is clustered on ${clustered.name}, an index on ${name}`;
  return null;
}
