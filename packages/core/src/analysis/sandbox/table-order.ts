import type { SchemaSnapshot, TableInfo } from '../../introspection/schema-snapshot';
import { qualifiedName } from '../../introspection/schema-snapshot';

/** Tables ordered parents first along foreign keys (cycles broken arbitrarily), partitioned parents before partitions. */
export function tablesInDependencyOrder(snapshot: SchemaSnapshot): TableInfo[] {
  const tables = snapshot.tables.filter((t) => t.kind === 'table' || t.kind === 'partitioned_table');
  const byName = new Map(tables.map((t) => [qualifiedName(t), t]));
  const out: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: TableInfo): void => {
    const q = qualifiedName(t);
    if (state.get(q)) return;
    state.set(q, 'visiting');
    const deps = [...t.foreign_keys.map((f) => `${f.referenced_schema}.${f.referenced_table}`), ...(t.partition_of ? [t.partition_of] : [])];
    for (const d of deps) {
      const p = byName.get(d);
      if (p && d !== q && !state.get(d)) visit(p);
    }
    state.set(q, 'done');
    out.push(t);
  };
  for (const t of tables) visit(t);
  return out;
}
