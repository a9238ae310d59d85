import type { SchemaSnapshot, TableInfo } from '../../introspection/schema-snapshot';
import { qualifiedName } from '../../introspection/schema-snapshot';

/**
 * Tables ordered parents first along foreign keys (cycles broken arbitrarily), partitioned parents
 * before partitions. A partition also follows what its ancestors' foreign keys reference, and a
 * table referencing a partitioned table follows that table's partitions (which hold its rows).
 */
export function tablesInDependencyOrder(snapshot: SchemaSnapshot): TableInfo[] {
  const tables = snapshot.tables.filter((t) => t.kind === 'table' || t.kind === 'partitioned_table');
  const byName = new Map(tables.map((t) => [qualifiedName(t), t]));
  const partitions = new Map<string, string[]>();
  for (const t of tables) if (t.partition_of) partitions.set(t.partition_of, [...(partitions.get(t.partition_of) ?? []), qualifiedName(t)]);
  const withPartitions = (name: string, out: string[] = []): string[] => {
    out.push(name);
    for (const p of partitions.get(name) ?? []) if (out.length < 10_000) withPartitions(p, out);
    return out;
  };
  const referenced = (t: TableInfo): string[] => {
    const out: string[] = [];
    for (let cur: TableInfo | undefined = t, n = 0; cur && n < 32; cur = cur.partition_of ? byName.get(cur.partition_of) : undefined, n++)
      for (const f of cur.foreign_keys) withPartitions(`${f.referenced_schema}.${f.referenced_table}`, out);
    return out;
  };
  const out: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: TableInfo): void => {
    const q = qualifiedName(t);
    if (state.get(q)) return;
    state.set(q, 'visiting');
    const deps = [...referenced(t), ...(t.partition_of ? [t.partition_of] : [])];
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
