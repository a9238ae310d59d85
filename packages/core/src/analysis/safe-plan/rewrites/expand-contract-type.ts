import type { IndexInfo, TableInfo } from '../../../introspection/schema-snapshot';
import { batchAnnotationComment } from '../../../migration-execution/batched-annotation';
import { deparse } from '../../../pg/deparse';
import { parseTreeSync } from '../../../pg/parser';
import { quoteIdent, quoteLiteral, quoteName } from '../../../pg/quote';
import { type AstNode, nodeKind, walk } from '../../ast';
import { helperName } from '../names';
import type { DraftStep } from '../types';
import { batchKey } from './batched-dml';
import { columnProblem, tableProblem } from './expand-contract-checks';
import { identityHandOver } from './identity-swap';
import { CATALOG_MS, onlySubcommand, type RewriteContext, type RewriteRule, scanMs } from './rewrite-context';

export const isTypeChange = (ctx: RewriteContext): boolean =>
  nodeKind(ctx.stmt.stmt) === 'AlterTableStmt' && onlySubcommand(ctx)?.subtype === 'AT_AlterColumnType';

/** Renames every reference to column `from` in a parsed definition (index elements, column references); true when there was one. */
function renameColumn(tree: AstNode, from: string, to: string): boolean {
  let found = false;
  walk(tree, (n) => {
    if (n.IndexElem && n.IndexElem.name === from) {
      n.IndexElem.name = to;
      found = true;
    }
    const fields = n.ColumnRef?.fields as AstNode[] | undefined;
    if (fields?.length === 1 && fields[0]!.String?.sval === from) {
      fields[0]!.String.sval = to;
      found = true;
    }
    // A foreign key's own columns are a list of names (not its referenced columns, pk_attrs).
    for (const s of (n.Constraint?.fk_attrs ?? []) as AstNode[])
      if (s.String?.sval === from) {
        s.String.sval = to;
        found = true;
      }
  });
  return found;
}

/** An index of the table rebuilt on the new column: built CONCURRENTLY under a helper name, put in place at the swap. */
interface IndexRebuild {
  index: IndexInfo;
  temp: string;
  build: string;
  /** The primary key or unique constraint it backs, attached again with USING INDEX at the swap. */
  constraint: { name: string; primary: boolean } | null;
}

/** A foreign key or CHECK of the table on the column, added again NOT VALID on the new column and validated before the swap. */
interface ConstraintRebuild {
  name: string;
  temp: string;
  add: string;
}

function indexRebuilds(table: TableInfo, column: string, shadow: string): IndexRebuild[] | string {
  const out: IndexRebuild[] = [];
  for (const index of table.indexes) {
    const tree = parseTreeSync(index.definition).stmts[0]!.stmt as AstNode;
    const body = tree.IndexStmt as AstNode | undefined;
    if (!body) return `index ${index.name}'s definition cannot be read`;
    if (!renameColumn(body, column, shadow)) continue;
    if (!index.is_valid) return `index ${index.name} on ${column} is INVALID; drop or rebuild it first`;
    const backs = table.constraints.find((c) => c.name === (index.constraint ?? index.name) && (c.type === 'primary_key' || c.type === 'unique'));
    if (index.constraint && !backs) return `index ${index.name} backs constraint ${index.constraint}, which the plan does not rebuild`;
    const temp = helperName('dbops_new_', index.name);
    body.idxname = temp;
    body.concurrent = true;
    out.push({ index, temp, build: deparse(tree), constraint: backs ? { name: backs.name, primary: backs.type === 'primary_key' } : null });
  }
  return out;
}

function constraintRebuilds(table: TableInfo, qualified: string, column: string, shadow: string): ConstraintRebuild[] {
  const defs = [
    ...table.foreign_keys.filter((f) => f.columns.includes(column)).map((f) => ({ name: f.name, definition: f.definition })),
    ...table.constraints.filter((c) => c.type === 'check' && c.columns.includes(column)).map((c) => ({ name: c.name, definition: c.definition })),
  ];
  return defs.map(({ name, definition }) => {
    const temp = helperName('dbops_new_', name);
    const tree = parseTreeSync(`ALTER TABLE ${qualified} ADD CONSTRAINT ${quoteIdent(temp)} ${definition}`).stmts[0]!.stmt as AstNode;
    const con = tree.AlterTableStmt.cmds[0].AlterTableCmd.def.Constraint as AstNode;
    renameColumn({ Constraint: con }, column, shadow);
    con.skip_validation = true;
    con.initially_valid = false;
    return { name, temp, add: deparse(tree) };
  });
}

/** The USING expression for a row of the trigger (`NEW.col`) or of the backfill (`col`); without USING, the column itself (assignment cast, as ALTER TYPE casts). */
function conversion(using: AstNode | undefined, column: string, relname: string, prefix: 'new' | null): string | { why: string } {
  const expr: AstNode = using ? structuredClone(using) : { ColumnRef: { fields: [{ String: { sval: column } }] } };
  let why: string | null = null;
  walk(expr, (n) => {
    if (n.SubLink) why = 'the USING expression has a subquery, which the trigger and the backfill would run per row against a changing table';
    const fields = n.ColumnRef?.fields as AstNode[] | undefined;
    if (!fields) return;
    if (fields.length === 2 && fields[0]!.String?.sval === relname) fields.shift();
    if (fields.length !== 1 || !fields[0]!.String) why = 'the USING expression refers to something other than columns of the table';
    else if (prefix) fields.unshift({ String: { sval: prefix } });
  });
  if (why) return { why };
  // Deparsed inside a SELECT so the expression comes back with the parser's own quoting.
  const text = deparse({ SelectStmt: { targetList: [{ ResTarget: { val: expr } }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } });
  return text.replace(/^SELECT /, '');
}

/** One column swapped for a new one of another type: the parts of its plan, for a rule to order with others. */
export interface ColumnSwap {
  table: TableInfo;
  column: string;
  shadow: string;
  /** The key the backfill batches by. */
  key: string;
  /** The shadow column, its sync function and trigger: one catalog-only transaction. */
  expand: DraftStep;
  /** The batched backfill of the shadow. */
  backfill: DraftStep;
  /** The column's indexes built CONCURRENTLY on the shadow. */
  builds: DraftStep[];
  /** The column's own foreign keys and CHECKs added NOT VALID on the shadow, each then validated. */
  constraints: DraftStep[];
  /** The helper CHECK that proves NOT NULL, added NOT VALID and validated (none for a nullable column). */
  notNull: DraftStep[];
  /** The statements of the swap transaction, in order. */
  swap: string[];
  /** The old column and the sync function dropped, after the swap. */
  contract: string;
  /** The indexes and constraints rebuilt, by name. */
  rebuilt: string[];
  notNullProved: boolean;
}

export interface ColumnSwapInput {
  table: TableInfo | undefined;
  column: string;
  /** The new type (`ColumnDef.typeName` of the ALTER). */
  typeName: AstNode;
  /** The USING expression, when there is one. */
  using: AstNode | undefined;
  /** Estimated time of one scan of the table (a build, a validation). */
  scan: number;
  /** Foreign keys of the column the caller rebuilds itself (not rebuilt here; still dropped by name by the caller). */
  skipForeignKey?: (name: string) => boolean;
  /** The caller rebuilds the foreign keys of other tables that reference the column. */
  referencedByOthers?: boolean;
}

/**
 * The parts of an expand/contract plan for one column (see `expandContractType`), or why the
 * column cannot go through one.
 */
export function planColumnSwap(ctx: RewriteContext, input: ColumnSwapInput): ColumnSwap | string {
  const { table, column: columnName, scan } = input;
  const snapshot = ctx.schema.snapshot;
  const tableWhy = tableProblem(table, snapshot);
  if (tableWhy) return tableWhy;
  const column = table!.columns.find((c) => c.name === columnName);
  if (!column) return `${columnName} is not a column of ${table!.name} in the snapshot`;
  const columnWhy = columnProblem(table!, column, snapshot, { referencedByOthers: input.referencedByOthers ?? false });
  if (columnWhy) return columnWhy;
  const key = batchKey(table!, snapshot);
  if (typeof key !== 'string') return key.why;

  const t = quoteName(table!.schema, table!.name);
  const shadow = helperName('dbops_new_', columnName);
  const old = helperName('', columnName, '_dbops_old');
  const fn = quoteName(table!.schema, helperName('dbops_sync_', `${table!.name}_${columnName}`));
  const trigger = quoteIdent(helperName('dbops_sync_', columnName));
  const [c, s] = [quoteIdent(columnName), quoteIdent(shadow)];
  const rowExpr = conversion(input.using, columnName, table!.name, null);
  const newExpr = conversion(input.using, columnName, table!.name, 'new');
  if (typeof rowExpr !== 'string') return rowExpr.why;
  if (typeof newExpr !== 'string') return newExpr.why;
  let indexes: IndexRebuild[] | string;
  let constraints: ConstraintRebuild[];
  try {
    indexes = indexRebuilds(table!, columnName, shadow);
    constraints = constraintRebuilds(table!, t, columnName, shadow).filter((k) => !input.skipForeignKey?.(k.name));
  } catch (e) {
    // A definition the snapshot holds that the parser cannot read: no plan rather than a guess.
    return `a definition of an index or constraint of ${table!.name} could not be read (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
  if (typeof indexes === 'string') return indexes;
  const notNull = !column.nullable;
  const helperCheck = quoteIdent(helperName('dbops_not_null_', `${table!.name}_${columnName}`));
  const sequence = snapshot.sequences.find((q) =>
    q.owner
      ? q.owner.schema === table!.schema && q.owner.table === table!.name && q.owner.column === columnName
      : q.owned_by === `${table!.schema}.${table!.name}.${columnName}`,
  );

  const identity = column.identity ? identityHandOver(column, sequence, input.typeName, t, shadow) : null;
  if (typeof identity === 'string') return identity;

  const swap: string[] = [`DROP TRIGGER ${trigger} ON ${t}`];
  for (const i of indexes)
    swap.push(i.constraint ? `ALTER TABLE ${t} DROP CONSTRAINT ${quoteIdent(i.constraint.name)}` : `DROP INDEX ${quoteName(table!.schema, i.index.name)}`);
  for (const k of constraints) swap.push(`ALTER TABLE ${t} DROP CONSTRAINT ${quoteIdent(k.name)}`);
  if (column.default !== null) swap.push(`ALTER TABLE ${t} ALTER COLUMN ${c} DROP DEFAULT`);
  // The old column stays until the last step: nothing may require a value in it meanwhile.
  if (identity) swap.push(...identity.before);
  if (notNull) swap.push(`ALTER TABLE ${t} ALTER COLUMN ${c} DROP NOT NULL`);
  swap.push(`ALTER TABLE ${t} RENAME COLUMN ${c} TO ${quoteIdent(old)}`, `ALTER TABLE ${t} RENAME COLUMN ${s} TO ${c}`);
  if (column.default !== null) swap.push(`ALTER TABLE ${t} ALTER COLUMN ${c} SET DEFAULT ${column.default}`);
  // Proved by the validated helper CHECK: no scan.
  if (notNull) swap.push(...(identity ? [] : [`ALTER TABLE ${t} ALTER COLUMN ${c} SET NOT NULL`]), `ALTER TABLE ${t} DROP CONSTRAINT ${helperCheck}`);
  for (const i of indexes)
    swap.push(
      i.constraint
        ? `ALTER TABLE ${t} ADD CONSTRAINT ${quoteIdent(i.constraint.name)} ${i.constraint.primary ? 'PRIMARY KEY' : 'UNIQUE'} USING INDEX ${quoteIdent(i.temp)}`
        : `ALTER INDEX ${quoteName(table!.schema, i.temp)} RENAME TO ${quoteIdent(i.index.name)}`,
    );
  for (const k of constraints) swap.push(`ALTER TABLE ${t} RENAME CONSTRAINT ${quoteIdent(k.temp)} TO ${quoteIdent(k.name)}`);
  if (identity) swap.push(...identity.after);
  else if (sequence) swap.push(`ALTER SEQUENCE ${quoteName(sequence.schema, sequence.name)} OWNED BY ${t}.${c}`);
  if (column.comment !== null) swap.push(`COMMENT ON COLUMN ${t}.${c} IS ${quoteLiteral(column.comment)}`);

  return {
    table: table!,
    column: columnName,
    shadow,
    key,
    expand: {
      sql: [
        `ALTER TABLE ${t} ADD COLUMN ${deparse({ ColumnDef: { colname: shadow, typeName: input.typeName } })}`,
        `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $dbops$\nBEGIN\n  NEW.${s} := ${newExpr};\n  RETURN NEW;\nEND\n$dbops$`,
        `CREATE TRIGGER ${trigger} BEFORE INSERT OR UPDATE ON ${t} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
      ].join(';\n'),
      transactional: true,
      lock_type: 'ACCESS EXCLUSIVE',
      lock_duration_ms: CATALOG_MS,
      batched: false,
    },
    backfill: {
      sql: `${batchAnnotationComment({ key, size: ctx.batching.size, pauseMs: ctx.batching.pauseMs })}\nUPDATE ${t} SET ${s} = ${rowExpr} WHERE ${s} IS NULL`,
      transactional: true,
      lock_type: 'ROW EXCLUSIVE',
      lock_duration_ms: Math.max(1, Math.round(scan * Math.min(1, ctx.batching.size / Math.max(1, table!.row_estimate)))),
      batched: true,
    },
    builds: indexes.map((i): DraftStep => ({
      sql: i.build,
      transactional: false,
      lock_type: 'SHARE UPDATE EXCLUSIVE',
      lock_duration_ms: Math.round(scan * 2.5),
      batched: false,
    })),
    constraints: constraints.flatMap((k): DraftStep[] => [
      { sql: k.add, transactional: true, lock_type: 'SHARE ROW EXCLUSIVE', lock_duration_ms: CATALOG_MS, batched: false },
      {
        sql: `ALTER TABLE ${t} VALIDATE CONSTRAINT ${quoteIdent(k.temp)}`,
        transactional: true,
        lock_type: 'SHARE UPDATE EXCLUSIVE',
        lock_duration_ms: scan,
        batched: false,
      },
    ]),
    notNull: notNull
      ? [
          {
            sql: `ALTER TABLE ${t} ADD CONSTRAINT ${helperCheck} CHECK (${s} IS NOT NULL) NOT VALID`,
            transactional: true,
            lock_type: 'ACCESS EXCLUSIVE',
            lock_duration_ms: CATALOG_MS,
            batched: false,
          },
          {
            sql: `ALTER TABLE ${t} VALIDATE CONSTRAINT ${helperCheck}`,
            transactional: true,
            lock_type: 'SHARE UPDATE EXCLUSIVE',
            lock_duration_ms: scan,
            batched: false,
          },
        ]
      : [],
    swap,
    contract: `ALTER TABLE ${t} DROP COLUMN ${quoteIdent(old)};\nDROP FUNCTION ${fn}()`,
    rebuilt: [...indexes.map((i) => i.index.name), ...constraints.map((k) => k.name)],
    notNullProved: notNull,
  };
}

/** The swap transaction and the contract step that end a plan. */
export function swapSteps(swap: readonly string[], contract: readonly string[]): DraftStep[] {
  return [
    { sql: swap.join(';\n'), transactional: true, lock_type: 'ACCESS EXCLUSIVE', lock_duration_ms: CATALOG_MS, batched: false },
    { sql: contract.join(';\n'), transactional: true, lock_type: 'ACCESS EXCLUSIVE', lock_duration_ms: CATALOG_MS, batched: false },
  ];
}

/** Why an `ALTER COLUMN ... TYPE` subcommand is not rewritten whatever the table; null when it may be. */
export function typeChangeProblem(ctx: RewriteContext, def: AstNode): string | null {
  if (ctx.facts.effect !== 'rewrite') return 'the type change does not rewrite the table; it only waits for its lock, and a swap would not make that shorter';
  if (def.collClause) return 'a type change with COLLATE is not rewritten';
  return null;
}

/**
 * `ALTER COLUMN c TYPE t` that rewrites the table (int to bigint above all) -> expand/contract:
 * a shadow column of the new type, kept in step by a BEFORE INSERT OR UPDATE trigger; a batched
 * backfill (the `-- dbops:batched` step, resumable); the column's indexes built CONCURRENTLY and
 * its foreign keys and CHECKs added NOT VALID and validated on the shadow; NOT NULL proved by a
 * validated helper CHECK; then one short swap transaction (old column renamed `c_dbops_old`,
 * shadow renamed `c`, default, NOT NULL, keys attached USING INDEX, indexes and constraints given
 * their names, the sequence's ownership moved or an identity handed over (`identity-swap.ts`),
 * the trigger dropped); last, the old column and the helper function dropped. The column ends
 * last in the table: the proof tolerates and reports that change of column order for this table
 * only. A column other tables' foreign keys
 * reference goes through `expandContractKey` instead.
 */
export const expandContractType: RewriteRule = {
  name: 'expand-contract-type',
  applies: isTypeChange,
  rewrite(ctx) {
    const cmd = onlySubcommand(ctx)!;
    const def = cmd.def?.ColumnDef as AstNode;
    const why = typeChangeProblem(ctx, def);
    if (why) return why;
    const plan = planColumnSwap(ctx, {
      table: ctx.table,
      column: String(cmd.name),
      typeName: def.typeName as AstNode,
      using: def.raw_default as AstNode | undefined,
      scan: scanMs(ctx),
    });
    if (typeof plan === 'string') return plan;
    const { table, column, shadow } = plan;
    return {
      steps: [plan.expand, plan.backfill, ...plan.builds, ...plan.constraints, ...plan.notNull, ...swapSteps(plan.swap, [plan.contract])],
      explanation: `statement ${ctx.stmt.index}: expand/contract: a new column ${shadow} of the new type, kept in step by trigger ${helperName('dbops_sync_', column)} and backfilled in batches of ${ctx.batching.size} rows by ranges of ${plan.key}${plan.rebuilt.length ? `, ${plan.rebuilt.join(', ')} rebuilt on it without blocking writes` : ''}${plan.notNullProved ? ', NOT NULL proved by a validated helper CHECK' : ''}, then swapped for ${column} in one short transaction and the old column dropped; ${column} becomes the last column of ${table.name}`,
      reordered: [`${table.schema}.${table.name}`],
    };
  },
};
