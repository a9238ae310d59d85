import { batchAnnotationComment } from '../../../migration-execution/batched-annotation';
import { deparse } from '../../../pg/deparse';
import { quoteIdent, quoteName } from '../../../pg/quote';
import { type AstNode, nodeKind, typeNameText } from '../../ast';
import { isVolatileExpression } from '../../volatility';
import { batchKey } from './batched-dml';
import { tableProblem } from './expand-contract-checks';
import { notNullSteps } from './not-null-via-check';
import { CATALOG_MS, onlySubcommand, type RewriteContext, type RewriteRule, scanMs } from './rewrite-context';

const KEPT = new Set(['CONSTR_DEFAULT', 'CONSTR_NOTNULL', 'CONSTR_NULL']);

const addedColumn = (ctx: RewriteContext): AstNode | null => {
  if (nodeKind(ctx.stmt.stmt) !== 'AlterTableStmt') return null;
  const cmd = onlySubcommand(ctx);
  const def = cmd?.subtype === 'AT_AddColumn' ? (cmd.def?.ColumnDef as AstNode | undefined) : undefined;
  const constraints = (def?.constraints ?? []) as AstNode[];
  return def && constraints.some((k) => k.Constraint?.contype === 'CONSTR_DEFAULT' && isVolatileExpression(k.Constraint.raw_expr)) ? def : null;
};

/**
 * `ADD COLUMN c t DEFAULT <volatile>` (random(), clock_timestamp(), gen_random_uuid()) -> the
 * expand half of expand/contract, with no swap to make: the column added without a default (a
 * catalog change) and given its default in the same short transaction, so that every row
 * inserted from then on gets it as the original would; the existing rows filled in batches by
 * `UPDATE ... SET c = DEFAULT WHERE c IS NULL` (the `-- dbops:batched` step, resumable); NOT
 * NULL through the helper CHECK pattern. No trigger is needed: the default itself keeps new rows
 * in step, and writers that do not know the column never set it.
 *
 * The difference from the original, by choice: each existing row's value is computed when its
 * batch runs, not all at the moment of the ALTER. A volatile default's values are not
 * reproducible either way (two runs of the original give different ones), so the plan counts as
 * equivalent; the proof compares the other columns and the column's non-null count, not its
 * values (`Rewrite.volatile`). A default reading the clock (`clock_timestamp()`) spreads over
 * the backfill's duration instead of one instant.
 */
export const volatileDefaultBackfill: RewriteRule = {
  name: 'volatile-default-backfill',
  applies: (ctx) => addedColumn(ctx) !== null,
  rewrite(ctx) {
    const def = addedColumn(ctx)!;
    const cmd = onlySubcommand(ctx)!;
    const column = String(def.colname);
    const constraints = ((def.constraints ?? []) as AstNode[]).map((k) => k.Constraint as AstNode);
    const other = constraints.find((k) => !KEPT.has(String(k.contype)));
    if (other)
      return `the new column has ${String(other.contype).replace(/^CONSTR_/, '')} besides its DEFAULT; add it in a statement of its own after the column`;
    if (cmd.missing_ok) return 'ADD COLUMN IF NOT EXISTS is not rewritten (the plan would change an existing column)';
    if (/^(small|big)?serial[248]?$/.test(typeNameText(def.typeName))) return 'a serial column is not rewritten';
    const table = ctx.table;
    const snapshot = ctx.schema.snapshot;
    const why = tableProblem(table, snapshot);
    if (why) return why;
    if (table!.force_row_security) return `${table!.name} forces row-level security, which could hide rows from the backfill`;
    const key = batchKey(table!, snapshot);
    if (typeof key !== 'string') return key.why;

    const t = quoteName(table!.schema, table!.name);
    const c = quoteIdent(column);
    const expr = constraints.find((k) => k.contype === 'CONSTR_DEFAULT')!.raw_expr as AstNode;
    const bare = structuredClone(ctx.stmt.stmt) as AstNode;
    bare.AlterTableStmt.cmds[0].AlterTableCmd.def.ColumnDef.constraints = [];
    const setDefault = structuredClone(ctx.stmt.stmt) as AstNode;
    setDefault.AlterTableStmt.cmds = [{ AlterTableCmd: { subtype: 'AT_ColumnDefault', name: column, def: expr, behavior: 'DROP_RESTRICT' } }];
    const notNull = constraints.some((k) => k.contype === 'CONSTR_NOTNULL');
    const scan = scanMs(ctx);
    return {
      steps: [
        { sql: `${deparse(bare)};\n${deparse(setDefault)}`, transactional: true, lock_type: 'ACCESS EXCLUSIVE', lock_duration_ms: CATALOG_MS, batched: false },
        {
          sql: `${batchAnnotationComment({ key, size: ctx.batching.size, pauseMs: ctx.batching.pauseMs })}\nUPDATE ${t} SET ${c} = DEFAULT WHERE ${c} IS NULL`,
          transactional: true,
          lock_type: 'ROW EXCLUSIVE',
          lock_duration_ms: Math.max(1, Math.round(scan * Math.min(1, ctx.batching.size / Math.max(1, table!.row_estimate)))),
          batched: true,
        },
        ...(notNull ? notNullSteps(ctx.facts.table, column, scan) : []),
      ],
      explanation: `statement ${ctx.stmt.index}: the column is added without a default and given its volatile DEFAULT in one catalog-only transaction (new rows get it from then on), the existing rows are filled in batches of ${ctx.batching.size} by ranges of ${key} (each row's value computed when its batch runs, not at ALTER time; the values of a volatile default are not reproducible, so the proof compares the column's non-null count, not its values)${notNull ? ', then NOT NULL is proved by a validated helper CHECK' : ''}`,
      volatile: [`${table!.schema}.${table!.name}.${column}`],
    };
  },
};
