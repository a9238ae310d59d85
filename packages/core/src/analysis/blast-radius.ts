import type { FkEdge, SchemaIndex } from './schema-index';
import type { StatementFacts } from './statement-facts';
import type { AffectedTable, ImpactChain } from './types';

interface Reach {
  table: string;
  path: string[];
  via: string[];
  action: string;
}

/** Breadth-first walk over referencing tables, following only edges `follow` accepts. */
function walkChildren(schema: SchemaIndex, root: string, follow: (e: FkEdge) => string | null, recurse: (action: string) => boolean): Reach[] {
  // Most tables are referenced by nothing: no queue, set or path to build for them.
  if (schema.referencing(root).length === 0) return [];
  const out: Reach[] = [];
  const seen = new Set([root]);
  const queue: Reach[] = [{ table: root, path: [root], via: [], action: 'direct' }];
  while (queue.length) {
    const cur = queue.shift()!;
    if (cur.table !== root && !recurse(cur.action)) continue;
    for (const e of schema.referencing(cur.table)) {
      const action = follow(e);
      if (!action || seen.has(e.from)) continue;
      seen.add(e.from);
      const next = { table: e.from, path: [...cur.path, e.from], via: [...cur.via, e.fk.name], action };
      out.push(next);
      queue.push(next);
    }
  }
  return out;
}

const onDel = (e: FkEdge): string | null =>
  e.fk.on_delete === 'cascade' || e.fk.on_delete === 'set_null' || e.fk.on_delete === 'set_default' ? e.fk.on_delete : null;
const onUpd = (e: FkEdge): string | null =>
  e.fk.on_update === 'cascade' || e.fk.on_update === 'set_null' || e.fk.on_update === 'set_default' ? e.fk.on_update : null;

/**
 * Tables a statement reaches through the foreign-key graph of the snapshot:
 * DELETE follows ON DELETE CASCADE (recursively) and SET NULL/SET DEFAULT (one hop);
 * UPDATE follows ON UPDATE actions likewise; TRUNCATE ... CASCADE reaches every referencing table
 * recursively; DROP TABLE reaches the referencing tables whose constraints (CASCADE) or whose
 * presence (RESTRICT, the drop then fails) it touches; adding or dropping a foreign key touches
 * the referenced table; dropping or retyping a referenced column touches the referencing tables.
 */
export function blastRadius(f: StatementFacts, schema: SchemaIndex, statementIndex: number): { affected: AffectedTable[]; chains: ImpactChain[] } {
  if (!f.table) return { affected: [], chains: [] };
  // Locked tables count as direct only for the main table, TRUNCATE and DROP (each table once, in lock order).
  const everyLocked = f.statement_type === 'TRUNCATE' || f.statement_type.startsWith('DROP_');
  const directs: string[] = [];
  for (const l of f.locks) if (l.mode !== 'NONE' && (everyLocked || l.table === f.table) && !directs.includes(l.table)) directs.push(l.table);
  if (!directs.includes(f.table)) directs.unshift(f.table);
  const reaches: { root: string; r: Reach }[] = [];
  for (const root of directs) {
    let rs: Reach[] = [];
    const t = f.statement_type;
    if (t === 'DELETE') rs = walkChildren(schema, root, onDel, (a) => a === 'cascade');
    else if (t === 'UPDATE') rs = walkChildren(schema, root, onUpd, (a) => a === 'cascade');
    else if (t === 'TRUNCATE' && f.cascade)
      rs = walkChildren(
        schema,
        root,
        () => 'truncate_cascade',
        () => true,
      );
    else if (t === 'DROP_TABLE')
      rs = walkChildren(
        schema,
        root,
        () => (f.cascade ? 'drop_constraint' : 'restrict'),
        () => false,
      );
    else if (t.startsWith('ALTER_TABLE')) {
      let cols: Set<string> | undefined;
      for (const c of f.subcommands) if (c.subtype === 'AT_DropColumn' || c.subtype === 'AT_AlterColumnType') (cols ??= new Set()).add(String(c.name));
      if (cols)
        rs = walkChildren(
          schema,
          root,
          (e) => (e.fk.referenced_columns.some((c) => cols!.has(c)) ? 'referenced_column_change' : null),
          () => false,
        );
      // Dropping a foreign key constraint touches the table it referenced.
      for (const c of f.subcommands) {
        if (c.subtype !== 'AT_DropConstraint') continue;
        const edge = schema.referenced(root).find((e) => e.fk.name === c.name);
        if (edge) rs.push({ table: edge.to, path: [root, edge.to], via: [edge.fk.name], action: 'referenced_by_dropped_fk' });
      }
    }
    if (root === f.table)
      for (const target of f.fk_targets)
        if (target !== root) rs.push({ table: target, path: [root, target], via: ['(new foreign key)'], action: 'referenced_by_new_fk' });
    for (const r of rs) reaches.push({ root, r });
  }
  const affected: AffectedTable[] = directs.map((t) => ({ table: t, impact: 'direct', cascade_path: null }));
  if (!reaches.length) return { affected, chains: [] };
  const seen = new Set(directs);
  const chains: ImpactChain[] = [];
  for (const { root, r } of reaches) {
    chains.push({
      statement_index: statementIndex,
      root,
      path: r.path,
      via: r.via,
      action: r.action,
      depth: r.path.length - 1,
      description: `${r.path.join(' -> ')} (${r.action.replace(/_/g, ' ')})`,
    });
    if (seen.has(r.table)) continue;
    seen.add(r.table);
    affected.push({ table: r.table, impact: 'cascade', cascade_path: r.path });
  }
  return { affected, chains };
}
