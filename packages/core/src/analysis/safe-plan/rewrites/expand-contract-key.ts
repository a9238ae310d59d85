import type { ForeignKeyInfo, SchemaSnapshot, TableInfo } from '../../../introspection/schema-snapshot';
import { deparse } from '../../../pg/deparse';
import { parseTreeSync } from '../../../pg/parser';
import { quoteIdent, quoteName } from '../../../pg/quote';
import { type AstNode, nodeKind } from '../../ast';
import { helperName } from '../names';
import type { DraftStep } from '../types';
import { type ColumnSwap, isTypeChange, planColumnSwap, swapSteps, typeChangeProblem } from './expand-contract-type';
import { CATALOG_MS, onlySubcommand, type RewriteContext, type RewriteRule, scanMs } from './rewrite-context';

/** A foreign key of another table that references the column being changed. */
interface Reference {
  child: TableInfo;
  fk: ForeignKeyInfo;
}

function referencesTo(table: TableInfo, column: string, snapshot: SchemaSnapshot): Reference[] {
  return snapshot.tables.flatMap((child) =>
    child.foreign_keys
      .filter((fk) => fk.referenced_schema === table.schema && fk.referenced_table === table.name && fk.referenced_columns.includes(column))
      .map((fk) => ({ child, fk })),
  );
}

const referenced = (ctx: RewriteContext): Reference[] => (ctx.table ? referencesTo(ctx.table, String(onlySubcommand(ctx)!.name), ctx.schema.snapshot) : []);

const qualified = (t: TableInfo) => `${t.schema}.${t.name}`;

/** Why a referencing foreign key cannot be re-created on the new key; null when it can. */
function referenceProblem({ child, fk }: Reference, parent: TableInfo): string | null {
  if (qualified(child) === qualified(parent)) return `foreign key ${fk.name} references its own table ${parent.name}, which dbops does not swap yet`;
  if (fk.columns.length !== 1) return `foreign key ${fk.name} of ${child.name} has several columns; dbops re-creates single-column foreign keys only`;
  if (!fk.validated) return `foreign key ${fk.name} of ${child.name} is NOT VALID; validate it (or drop it) before changing the key's type`;
  if (child.kind !== 'table' || child.partition_of) return `foreign key ${fk.name} belongs to ${child.name}, which is not an ordinary table`;
  return null;
}

/**
 * The statements right after the parent's that change a referencing column's type the same way
 * (`ALTER TABLE child ALTER COLUMN parent_id TYPE bigint`, alone): the plan expands those
 * columns beside the key and swaps them in the same transaction. Only contiguous ones are folded
 * in, so no statement of the migration runs out of its order; a later one runs by its own plan.
 */
function childTypeChanges(ctx: RewriteContext, refs: readonly Reference[]): Map<string, { index: number; def: AstNode; scan: number }> {
  const out = new Map<string, { index: number; def: AstNode; scan: number }>();
  for (const p of ctx.script.parsed.filter((x) => x.index > ctx.stmt.index).sort((a, b) => a.index - b.index)) {
    const facts = ctx.script.facts[p.index]!;
    const cmd = facts.subcommands.length === 1 ? (facts.subcommands[0] as AstNode) : null;
    if (nodeKind(p.stmt) !== 'AlterTableStmt' || cmd?.subtype !== 'AT_AlterColumnType' || facts.effect !== 'rewrite') break;
    const def = cmd.def?.ColumnDef as AstNode;
    const ref = refs.find((r) => qualified(r.child) === facts.table && r.fk.columns[0] === cmd.name);
    if (!ref || def.collClause || out.has(ref.fk.name)) break;
    out.set(ref.fk.name, { index: p.index, def, scan: Math.max(1, ctx.script.statements[p.index]!.lock_duration_ms) });
  }
  return out;
}

/** `ALTER TABLE child ADD CONSTRAINT dbops_new_<fk> ... REFERENCES parent (<shadow>) NOT VALID`, on the child's shadow column when it changes too. */
function newForeignKey(ref: Reference, parentColumn: string, parentShadow: string, childShadow: string | null): { temp: string; add: string } {
  const temp = helperName('dbops_new_', ref.fk.name);
  const tree = parseTreeSync(`ALTER TABLE ${quoteName(ref.child.schema, ref.child.name)} ADD CONSTRAINT ${quoteIdent(temp)} ${ref.fk.definition}`).stmts[0]!
    .stmt as AstNode;
  const con = tree.AlterTableStmt.cmds[0].AlterTableCmd.def.Constraint as AstNode;
  // Qualified: the definition names the parent as the search path of the introspection saw it.
  if (con.pktable) con.pktable.schemaname = ref.fk.referenced_schema;
  for (const s of (con.pk_attrs ?? []) as AstNode[]) if (s.String?.sval === parentColumn) s.String.sval = parentShadow;
  if (childShadow) for (const s of (con.fk_attrs ?? []) as AstNode[]) if (s.String?.sval === ref.fk.columns[0]) s.String.sval = childShadow;
  con.skip_validation = true;
  con.initially_valid = false;
  return { temp, add: deparse(tree) };
}

/**
 * `ALTER COLUMN id TYPE bigint` of a key that other tables' foreign keys reference -> one
 * expand/contract plan for the key and its references, in this order, so that no write can
 * break referential integrity and none is lost:
 * 1. the key (and each referencing column the next statements change too) gets its shadow
 *    column and sync trigger, and is backfilled in batches;
 * 2. the key's unique index is built CONCURRENTLY on the shadow (a plain unique index is
 *    enough for a foreign key to reference);
 * 3. each referencing foreign key is added again, NOT VALID, from the child's column (or its
 *    shadow) to the parent's shadow, then validated: both the old and the new foreign key hold
 *    from then on; the shadow equals the key on every row, so the new one refuses exactly what
 *    the old one refuses, and the actions (CASCADE...) of the two do the same to the same rows;
 * 4. one swap transaction takes ACCESS EXCLUSIVE on the children, then the parent, up front
 *    (the order a child's writer takes them in; under `lock_timeout`), drops the old foreign
 *    keys, swaps the key as `expandContractType` does (its constraint attached USING INDEX to
 *    the index the new foreign keys already use) and the changed children's columns, and gives
 *    the new foreign keys their names: catalog changes only, no scan, and every foreign key is
 *    valid when it commits;
 * 5. the old columns and the sync functions are dropped.
 * A referencing column the migration does not change keeps its type, as the original leaves it
 * (an int column referencing a bigint key is a valid foreign key).
 */
export const expandContractKey: RewriteRule = {
  name: 'expand-contract-key',
  applies: (ctx) => isTypeChange(ctx) && referenced(ctx).length > 0,
  rewrite(ctx) {
    const cmd = onlySubcommand(ctx)!;
    const def = cmd.def?.ColumnDef as AstNode;
    const why = typeChangeProblem(ctx, def);
    if (why) return why;
    const parentTable = ctx.table!;
    const column = String(cmd.name);
    const refs = referenced(ctx);
    for (const r of refs) {
      const problem = referenceProblem(r, parentTable);
      if (problem) return problem;
    }
    const parent = planColumnSwap(ctx, {
      table: parentTable,
      column,
      typeName: def.typeName as AstNode,
      using: def.raw_default as AstNode | undefined,
      scan: scanMs(ctx),
      referencedByOthers: true,
    });
    if (typeof parent === 'string') return parent;

    const changes = childTypeChanges(ctx, refs);
    const children = new Map<string, ColumnSwap>();
    for (const r of refs) {
      const change = changes.get(r.fk.name);
      if (!change) continue;
      // The old and the new foreign key would each rewrite the row, through different columns the sync trigger ties together.
      if ([r.fk.on_delete, r.fk.on_update].some((a) => a === 'set_null' || a === 'set_default'))
        return `foreign key ${r.fk.name} of ${r.child.name} sets NULL or DEFAULT on its column, which the plan cannot keep in step while it changes that column's type`;
      const plan = planColumnSwap(ctx, {
        table: r.child,
        column: r.fk.columns[0]!,
        typeName: change.def.typeName as AstNode,
        using: change.def.raw_default as AstNode | undefined,
        scan: change.scan,
        skipForeignKey: (name) => refs.some((x) => x.fk.name === name && qualified(x.child) === qualified(r.child)),
      });
      if (typeof plan === 'string') return `${r.child.name}.${r.fk.columns[0]} (statement ${change.index}): ${plan}`;
      children.set(r.fk.name, plan);
    }

    let fks: { ref: Reference; temp: string; add: string }[];
    try {
      fks = refs.map((ref) => ({ ref, ...newForeignKey(ref, column, parent.shadow, children.get(ref.fk.name)?.shadow ?? null) }));
    } catch (e) {
      return `the definition of a foreign key referencing ${parentTable.name} could not be read (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
    }
    const swaps = [parent, ...children.values()];
    const t = (x: TableInfo) => quoteName(x.schema, x.name);
    // Children first: a writer of a child locks the child, then the parent (its foreign key's
    // check); taking them in the same order, the swap waits behind such a writer instead of
    // deadlocking with it (the original ALTER, parent first, can).
    const locked = [...new Map([...refs.map((r) => r.child), parentTable].map((x) => [qualified(x), t(x)])).values()];
    const fkSteps = fks.flatMap(({ ref, temp, add }): DraftStep[] => [
      { sql: add, transactional: true, lock_type: 'SHARE ROW EXCLUSIVE', lock_duration_ms: CATALOG_MS, batched: false },
      {
        sql: `ALTER TABLE ${t(ref.child)} VALIDATE CONSTRAINT ${quoteIdent(temp)}`,
        transactional: true,
        lock_type: 'SHARE UPDATE EXCLUSIVE',
        lock_duration_ms: Math.max(1, Math.round(scanMs(ctx) * (ref.child.row_estimate / Math.max(1, parentTable.row_estimate)))),
        batched: false,
      },
    ]);
    const swap = [
      `LOCK TABLE ${locked.join(', ')} IN ACCESS EXCLUSIVE MODE`,
      ...fks.map(({ ref }) => `ALTER TABLE ${t(ref.child)} DROP CONSTRAINT ${quoteIdent(ref.fk.name)}`),
      ...swaps.flatMap((s) => s.swap),
      ...fks.map(({ ref, temp }) => `ALTER TABLE ${t(ref.child)} RENAME CONSTRAINT ${quoteIdent(temp)} TO ${quoteIdent(ref.fk.name)}`),
    ];
    const changed = [...children.values()].map((s) => `${s.table.name}.${s.column}`);
    const kept = refs.filter((r) => !children.has(r.fk.name)).map((r) => `${r.child.name}.${r.fk.columns[0]}`);
    return {
      steps: [
        ...swaps.map((s) => s.expand),
        ...swaps.map((s) => s.backfill),
        ...swaps.flatMap((s) => s.builds),
        ...swaps.flatMap((s) => s.constraints),
        ...swaps.flatMap((s) => s.notNull),
        ...fkSteps,
        ...swapSteps(
          swap,
          swaps.map((s) => s.contract),
        ),
      ],
      explanation:
        `statement ${ctx.stmt.index}${changes.size ? ` (with statement${changes.size > 1 ? 's' : ''} ${[...changes.values()].map((c) => c.index).join(', ')})` : ''}: ` +
        `expand/contract of a referenced key: new column ${parent.shadow} of ${parentTable.name}${changed.length ? ` and new columns for ${changed.join(', ')}` : ''}, kept in step by triggers and backfilled in batches of ${ctx.batching.size} rows` +
        `${parent.rebuilt.length ? `, ${parent.rebuilt.join(', ')} rebuilt on it without blocking writes` : ''}; ` +
        `the foreign keys ${fks.map(({ ref }) => `${ref.fk.name} of ${ref.child.name}`).join(', ')} added again on the new key NOT VALID and validated before the swap, so both hold until it; ` +
        `then one short transaction locks ${locked.length} tables, drops the old foreign keys, swaps the columns and gives every key its name, and the old columns are dropped` +
        `${kept.length ? `; ${kept.join(', ')} keep${kept.length > 1 ? '' : 's'} ${kept.length > 1 ? 'their' : 'its'} type, as the original leaves ${kept.length > 1 ? 'them' : 'it'}` : ''}` +
        `; ${swaps.map((s) => `${s.column} becomes the last column of ${s.table.name}`).join(', ')}`,
      reordered: swaps.map((s) => qualified(s.table)),
      absorbs: [...changes.values()].map((c) => c.index),
    };
  },
};
