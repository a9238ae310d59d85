import { quoteIdent, quoteQualified } from '../../pg/quote';
import type { ColumnInfo, IndexInfo, SchemaSnapshot, TableInfo } from '../../introspection/schema-snapshot';
import { qualifiedName } from '../../introspection/schema-snapshot';

// The DDL a rollback step writes to recreate a dropped table, column, key or index from the
// snapshot: plain statements a user reads and runs, not the clone's full rebuild.

export function columnDdl(c: ColumnInfo): string {
  let s = `${quoteIdent(c.name)} ${c.data_type}`;
  if (c.generated === 'stored' && c.default) return `${s} GENERATED ALWAYS AS (${c.default}) STORED`;
  if (c.identity) s += ` GENERATED ${c.identity === 'always' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`;
  else if (c.default !== null) s += ` DEFAULT ${c.default}`;
  if (!c.nullable) s += ' NOT NULL';
  return s;
}

/** CREATE TABLE for one table with its columns, constraints and the foreign keys given in `inlineFks`. */
export function createTableDdl(t: TableInfo, inlineFks: readonly TableInfo['foreign_keys'][number][] = []): string {
  const name = quoteQualified(qualifiedName(t));
  if (t.partition_of) return `CREATE TABLE ${name} PARTITION OF ${quoteQualified(t.partition_of)} ${t.partition_bound ?? 'DEFAULT'}`;
  const parts = [...t.columns].sort((a, b) => a.ordinal - b.ordinal).map(columnDdl);
  for (const c of t.constraints) parts.push(`CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`);
  for (const fk of inlineFks) parts.push(`CONSTRAINT ${quoteIdent(fk.name)} ${fk.definition}`);
  const partition = t.kind === 'partitioned_table' && t.partition_key ? ` PARTITION BY ${t.partition_key}` : '';
  return `CREATE TABLE ${name} (\n  ${parts.join(',\n  ')}\n)${partition}`;
}

/** Secondary indexes (those not backing a constraint) of a table. */
export function indexDdls(t: TableInfo): string[] {
  if (t.partition_of) return [];
  const constraintNames = new Set(t.constraints.map((c) => c.name));
  return t.indexes.filter((i) => !i.is_primary && !constraintNames.has(i.name)).map((i) => i.definition);
}

export const foreignKeyDdls = (t: TableInfo, only: readonly TableInfo['foreign_keys'][number][] = t.foreign_keys): string[] =>
  only.map(
    (fk) =>
      `ALTER TABLE ${quoteQualified(qualifiedName(t))} ADD CONSTRAINT ${quoteIdent(fk.name)} ${fk.definition}${fk.validated || /NOT VALID/i.test(fk.definition) ? '' : ' NOT VALID'}`,
  );

/**
 * An index as the snapshot has it, with the partition indexes attached to it when it is a
 * partitioned index: `pg_get_indexdef` gives such an index `ON ONLY` its table, which builds
 * nothing on the partitions, so each attached partition index is created by its own definition
 * (its name kept) and attached, as pg_dump does. Recursive for sub-partitioned tables.
 */
export function indexWithPartitionsDdl(snapshot: SchemaSnapshot, schema: string, ix: IndexInfo, concurrently = false): string[] {
  const children: Array<{ schema: string; ix: IndexInfo }> = [];
  for (const t of snapshot.tables)
    for (const c of t.indexes) if (c.parent && c.parent.schema === schema && c.parent.name === ix.name) children.push({ schema: t.schema, ix: c });
  const own = concurrently && !children.length ? ix.definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX CONCURRENTLY ') : ix.definition;
  if (!children.length) return [own];
  const out = [own];
  for (const c of children) {
    out.push(...indexWithPartitionsDdl(snapshot, c.schema, c.ix));
    out.push(`ALTER INDEX ${quoteIdent(schema)}.${quoteIdent(ix.name)} ATTACH PARTITION ${quoteIdent(c.schema)}.${quoteIdent(c.ix.name)}`);
  }
  return out;
}
