import type { ColumnInfo, SchemaSnapshot, TableInfo } from '../../../introspection/schema-snapshot';
import { batchAnnotationComment, readBatchAnnotation } from '../../../migration-execution/batched-annotation';
import { BATCH_KEY_TYPES, batchedStatement } from '../../../migration-execution/batched-statement';
import { type AstNode, names, nodeKind, walk } from '../../ast';
import type { RewriteRule } from './rewrite-context';

/** Whether `column` alone is unique on the table: its single-column primary key, unique constraint or valid unique index without predicate. */
function uniqueOnItsOwn(table: TableInfo, column: string): boolean {
  return (
    (table.primary_key?.length === 1 && table.primary_key[0] === column) ||
    table.constraints.some((c) => c.type === 'unique' && c.columns.length === 1 && c.columns[0] === column) ||
    table.indexes.some((i) => i.is_unique && i.is_valid && !i.predicate && i.columns.length === 1 && i.columns[0] === column)
  );
}

/** Whether the executor ranges keys of this column's type (or an enum of the schema). */
const rangeable = (column: ColumnInfo, snapshot: SchemaSnapshot): boolean =>
  BATCH_KEY_TYPES.has(column.udt_name) || snapshot.enums.some((e) => e.name === column.udt_name);

/**
 * The key a table's rows are batched by: its single-column primary key, else a single-column
 * unique constraint or valid unique index (no predicate) on a NOT NULL column; or why none fits.
 */
export function batchKey(table: TableInfo, snapshot: SchemaSnapshot): string | { why: string } {
  const notNull = (c: string) => table.columns.find((x) => x.name === c)?.nullable === false;
  const candidates = [
    ...(table.primary_key?.length === 1 ? [table.primary_key[0]!] : []),
    ...table.constraints.filter((c) => c.type === 'unique' && c.columns.length === 1).map((c) => c.columns[0]!),
    ...table.indexes.filter((i) => i.is_unique && i.is_valid && !i.predicate && i.columns.length === 1).map((i) => i.columns[0]!),
  ].filter((c) => table.columns.some((x) => x.name === c) && notNull(c));
  const key = candidates[0];
  if (key === undefined)
    return { why: `${table.name} has no single-column primary key or NOT NULL unique key to batch its rows by; the statement stays one transaction` };
  const column = table.columns.find((c) => c.name === key)!;
  if (!rangeable(column, snapshot))
    return {
      why: `key column ${key} is of type ${column.data_type}, and dbops batches ranges of integers, numeric, text, uuid, dates, timestamps, bytea and enums only`,
    };
  return key;
}

/** Why the table cannot be batched by a key the migration names, as the executor would find it at the step's start; null when it can. */
export function namedKeyProblem(table: TableInfo, key: string, snapshot: SchemaSnapshot): string | null {
  const column = table.columns.find((c) => c.name === key);
  if (!column) return `${table.name} has no column ${key}`;
  if (column.nullable) return `key column ${key} may be NULL (rows with a NULL key would fall in no batch)`;
  if (!uniqueOnItsOwn(table, key)) return `key column ${key} is not unique on its own (no valid unique index on exactly that column)`;
  if (!rangeable(column, snapshot))
    return `key column ${key} is of type ${column.data_type}, whose ranges dbops does not batch (integers, numeric, text, uuid, dates, timestamps, bytea and enums)`;
  return null;
}

const EVENT = { UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE' } as const;

/** What of the snapshot would make the batches do something the single statement does not; null when nothing (also the `batched-annotation` rule's check). */
export function snapshotProblem(table: TableInfo, snapshot: SchemaSnapshot, event: 'UPDATE' | 'DELETE', stmt: AstNode, only: boolean): string | null {
  const onTable = (t: { table_schema: string; table: string }) => t.table_schema === table.schema && t.table === table.name;
  const model = snapshot.model;
  const trigger = model?.triggers.find(
    (t) =>
      onTable(t) &&
      t.enabled !== 'D' &&
      /\bFOR EACH STATEMENT\b/.test(t.definition) &&
      new RegExp(`\\b(BEFORE|AFTER|INSTEAD OF)\\b.*\\b${event}\\b.* ON `).test(t.definition.split(' FOR EACH ')[0]!),
  );
  if (trigger) return `statement-level trigger ${trigger.name} fires on ${event}: batches would fire it once per batch instead of once`;
  const rule = model?.rules.find((r) => onTable(r) && new RegExp(`\\bON ${event} TO\\b`).test(r.definition));
  if (rule) return `rule ${rule.name} rewrites ${event} on ${table.name}`;
  if (table.kind === 'table' && !only && snapshot.tables.some((t) => t.inherits?.some((p) => p.schema === table.schema && p.name === table.name)))
    return `${table.name} has inheritance children, whose keys are not unique with its own`;
  // A function of the schema may read the table itself, and would see the batches already done.
  const routines = new Set((model?.routines ?? []).map((r) => r.name));
  let called: string | null = null;
  walk(stmt, (n) => {
    const fn = n.FuncCall as AstNode | undefined;
    const name = fn ? names(fn.funcname).at(-1) : undefined;
    if (name && routines.has(name)) called = name;
  });
  if (called) return `the statement calls ${called}, a function of the schema that may read ${table.name} while the batches change it`;
  return null;
}

/**
 * A large `UPDATE` or `DELETE` -> the same statement run in batches by ranges of the table's
 * key, each its own short transaction: row locks are held for one batch, not for the whole
 * statement. The step is the original text behind a `-- dbops:batched` comment
 * (`migration-execution/batched-annotation.ts`), so the plan's one script is what the token
 * approves and what psql or the sandbox run whole, to the same end state.
 */
export const batchedDml: RewriteRule = {
  name: 'batched-dml',
  applies: (ctx) => nodeKind(ctx.stmt.stmt) === 'UpdateStmt' || nodeKind(ctx.stmt.stmt) === 'DeleteStmt',
  rewrite(ctx) {
    const kind = nodeKind(ctx.stmt.stmt) as keyof typeof EVENT;
    const written = readBatchAnnotation(ctx.stmt.sql);
    if (written && 'error' in written) return `its dbops:batched comment cannot be read (${written.error})`;
    const table = ctx.table;
    if (!table || (table.kind !== 'table' && table.kind !== 'partitioned_table')) return 'only the rows of a table are batched';
    const key = batchKey(table, ctx.schema.snapshot);
    if (typeof key !== 'string') return key.why;
    const form = batchedStatement(ctx.stmt.stmt, key, ctx.batching.size);
    if (typeof form === 'string') return form;
    const problem = snapshotProblem(table, ctx.schema.snapshot, EVENT[kind], ctx.stmt.stmt, form.only);
    if (problem) return problem;
    const { size, pauseMs } = ctx.batching;
    const share = Math.min(1, size / Math.max(1, table.row_estimate));
    return {
      steps: [
        {
          sql: `${batchAnnotationComment({ key, size, pauseMs })}\n${ctx.stmt.sql.replace(/;\s*$/, '')}`,
          transactional: true,
          lock_type: ctx.report.lock_type,
          lock_duration_ms: Math.max(1, Math.round(ctx.report.lock_duration_ms * share)),
          batched: true,
        },
      ],
      explanation: `statement ${ctx.stmt.index}: the ${EVENT[kind]} runs in batches of ${size} rows by ranges of ${key}, each its own short transaction (row locks are held for one batch, not the whole statement; each batch is recorded, so a run resumed after a lost executor repeats none)`,
    };
  },
};
