import { type AstNode, nodeBody, nodeKind, rangeVarName } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { SchemaIndex } from '../schema-index';
import type { StatementFacts } from '../statement-facts';
import type { IndexInfo, TableInfo } from '../../introspection/schema-snapshot';
import { parseTreeSync } from '../../pg/parser';

/**
 * Indexes that another object takes over during the migration, so that undoing the taker also
 * removes them and undoing their own creation must not try again (PostgreSQL: `index "x" does
 * not exist`):
 * - `ALTER TABLE t ADD CONSTRAINT c PRIMARY KEY|UNIQUE USING INDEX x`: the constraint owns x,
 *   and dropping the constraint drops x;
 * - `CREATE INDEX p_idx ON parent (...)` attaches each partition's matching index, and
 *   `ALTER INDEX p_idx ATTACH PARTITION x` one by name: dropping p_idx drops them.
 * Indexes of the snapshot taken over the same way are dropped by the taker's undo too, so that
 * undo recreates them.
 */
export interface Absorption {
  /** Creating statement index -> why its undo has nothing left to do. */
  absorbed: Map<number, string>;
  /** Taker statement index -> definitions of snapshot indexes its undo must recreate. */
  recreate: Map<number, string[]>;
  /** `ALTER INDEX ... ATTACH PARTITION` statement index -> what undoes it, or null when nothing can. */
  attachUndoneBy: Map<number, number | null>;
}

/** What decides whether PostgreSQL attaches a partition's index to its parent's: keys, method, predicate, uniqueness. */
function indexShape(ix: AstNode): string {
  const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null), (k, val) => (k === 'location' || k === 'idxname' ? undefined : val));
  return JSON.stringify([ix.accessMethod ?? 'btree', !!ix.unique, strip(ix.indexParams), strip(ix.whereClause)]);
}

/** The IndexStmt of a snapshot index's definition (`pg_get_indexdef`), or null when it does not parse. */
function snapshotIndexStmt(ix: IndexInfo): AstNode | null {
  try {
    return nodeBody(parseTreeSync(ix.definition).stmts[0]?.stmt) ?? null;
  } catch {
    return null;
  }
}

/** Ancestors of a table through `partition_of`. */
function ancestors(table: string, schema: SchemaIndex): string[] {
  const out: string[] = [];
  for (let t = schema.table(table); t?.partition_of && out.length < 32; t = schema.table(t.partition_of)) out.push(t.partition_of);
  return out;
}

const qualifiedIndex = (b: AstNode): string => `${b.relation?.schemaname ?? 'public'}.${b.idxname}`;

export function findAbsorptions(parsed: readonly ParsedStatement[], facts: readonly StatementFacts[], schema: SchemaIndex): Absorption {
  const out: Absorption = { absorbed: new Map(), recreate: new Map(), attachUndoneBy: new Map() };
  /** Indexes created so far: `schema.name` -> statement index, table, IndexStmt body. */
  const created = new Map<string, { index: number; table: string; body: AstNode }>();
  /** Partitioned indexes created by the migration: `schema.name` -> statement index. */
  const parentIndexes = new Map<string, number>();
  for (const p of parsed) {
    const kind = nodeKind(p.stmt);
    const b = nodeBody(p.stmt);
    const f = facts[p.index]!;
    if (kind === 'IndexStmt') {
      const table = rangeVarName(b.relation);
      const t = schema.table(table);
      if (t?.kind === 'partitioned_table' && b.relation?.inh !== false) {
        const shape = indexShape(b);
        const why = (name: string) =>
          `index ${name} was attached to the partitioned index ${b.idxname ?? '(unnamed)'} by statement ${p.index}, so the undo of statement ${p.index} drops it`;
        for (const [name, c] of created) {
          if (out.absorbed.has(c.index)) continue;
          if (ancestors(c.table, schema).includes(table) && indexShape(c.body) === shape) out.absorbed.set(c.index, why(name));
        }
        const rebuild: string[] = [];
        for (const part of partitionsBelow(table, schema)) {
          for (const ix of part.indexes) {
            if (ix.parent) continue;
            const stmt = snapshotIndexStmt(ix);
            if (stmt && indexShape(stmt) === shape) rebuild.push(ix.definition);
          }
        }
        if (rebuild.length) out.recreate.set(p.index, rebuild);
        if (b.idxname) parentIndexes.set(qualifiedIndex(b), p.index);
      }
      if (b.idxname) created.set(qualifiedIndex(b), { index: p.index, table, body: b });
    }
    if (kind === 'AlterTableStmt') {
      for (const c of f.subcommands) {
        const con = c.def?.Constraint as AstNode | undefined;
        if (c.subtype === 'AT_AddConstraint' && con?.indexname) {
          const name = `${f.table.split('.')[0]}.${con.indexname}`;
          const mine = created.get(name);
          const constraint = String(con.conname ?? con.indexname);
          if (mine)
            out.absorbed.set(
              mine.index,
              `index ${con.indexname} became constraint ${constraint} at statement ${p.index}, so the undo of statement ${p.index} drops it`,
            );
          else {
            const ix = schema.table(f.table)?.indexes.find((i) => i.name === con.indexname);
            if (ix) out.recreate.set(p.index, [...(out.recreate.get(p.index) ?? []), ix.definition]);
          }
        }
        if (c.subtype === 'AT_AttachPartition' && b.objtype === 'OBJECT_INDEX') {
          const parent = rangeVarName(b.relation);
          const child = rangeVarName(c.def?.PartitionCmd?.name);
          const by = parentIndexes.get(parent);
          const mine = created.get(child);
          if (by !== undefined && mine)
            out.absorbed.set(mine.index, `index ${child} was attached to ${parent} by statement ${p.index}, so the undo of statement ${by} drops it`);
          out.attachUndoneBy.set(p.index, by ?? null);
        }
      }
    }
  }
  return out;
}

/** Every partition (at any depth) of a partitioned table in the snapshot. */
function partitionsBelow(table: string, schema: SchemaIndex): TableInfo[] {
  const out: TableInfo[] = [];
  const todo = [table];
  for (let guard = 0; todo.length && guard < 10_000; guard++) {
    const parent = todo.pop()!;
    for (const t of schema.snapshot.tables)
      if (t.partition_of === parent) {
        out.push(t);
        todo.push(`${t.schema}.${t.name}`);
      }
  }
  return out;
}
