import { quoteIdent } from '../../pg/quote';
import { qualifiedName, type ColumnInfo, type SchemaSnapshot, type SequenceInfo, type TableInfo } from '../schema-snapshot';
import { RANK, type DdlNode } from './ddl-statement';
import { label, qname } from './names';
import { sequenceOptions } from './sequence-ddl';

/** Node id of a relation: its oid-based id (version 2), else its name. */
export const relationId = (t: { schema: string; name: string; id?: string }): string => t.id ?? `rel:${qualifiedName(t)}`;

/** Identity sequences by owning `schema.table.column`, for the column's IDENTITY clause. */
export const identitySequences = (s: SchemaSnapshot): Map<string, SequenceInfo> => {
  const m = new Map<string, SequenceInfo>();
  for (const q of s.sequences) {
    if (q.owner?.identity) m.set(`${q.owner.schema}\0${q.owner.table}\0${q.owner.column}`, q);
  }
  return m;
};

function columnSql(t: TableInfo, c: ColumnInfo, identity: Map<string, SequenceInfo>): string {
  let s = `${quoteIdent(c.name)} ${c.data_type}`;
  if (c.collation) s += ` COLLATE ${c.collation}`;
  const generated = c.generated === 'stored' ? (c.generation_expression ?? c.default) : null;
  if (generated) s += ` GENERATED ALWAYS AS (${generated}) STORED`;
  else if (c.default !== null) s += ` DEFAULT ${c.default}`;
  if (!c.nullable) s += ' NOT NULL';
  if (c.identity) {
    const seq = identity.get(`${t.schema}\0${t.name}\0${c.name}`);
    const options = seq?.id ? ` (SEQUENCE NAME ${qname(seq.schema, seq.name)}${sequenceOptions(seq, false)})` : '';
    s += ` GENERATED ${c.identity === 'always' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY${options}`;
  }
  return s;
}

const isPartition = (t: TableInfo): boolean => t.partition_of !== null && t.partition_bound !== null;

/** CREATE TABLE (or PARTITION OF), with local columns and local CHECK constraints inline. */
function createTable(t: TableInfo, byName: ReadonlyMap<string, TableInfo>, identity: Map<string, SequenceInfo>): string[] {
  const name = qname(t.schema, t.name);
  const head = `CREATE ${t.unlogged ? 'UNLOGGED ' : ''}${t.kind === 'foreign_table' ? 'FOREIGN ' : ''}TABLE ${name}`;
  const checks = t.constraints.filter((c) => c.type === 'check' && c.is_local !== false).map((c) => `CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`);
  const columns = [...t.columns].sort((a, b) => a.ordinal - b.ordinal);
  const options = t.options?.length ? ` WITH (${t.options.join(', ')})` : '';
  const partitionBy = t.kind === 'partitioned_table' && t.partition_key ? ` PARTITION BY ${t.partition_key}` : '';
  if (isPartition(t)) {
    const parent = byName.get(t.partition_of!);
    const parentSql = parent ? qname(parent.schema, parent.name) : t.partition_of!;
    const parentOrder = parent
      ? [...parent.columns]
          .sort((a, b) => a.ordinal - b.ordinal)
          .map((c) => c.name)
          .join('\0')
      : null;
    if (parentOrder !== null && parentOrder !== columns.map((c) => c.name).join('\0')) {
      // A table attached with its columns in another order than its parent's: created as it
      // is, with every CHECK the parent has (ATTACH requires them), then attached, as pg_dump does.
      const all = t.constraints.filter((c) => c.type === 'check').map((c) => `CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`);
      const parts = [...columns.map((c) => columnSql(t, c, identity)), ...all];
      return [`${head} (\n  ${parts.join(',\n  ')}\n)${partitionBy}${options}`, `ALTER TABLE ONLY ${parentSql} ATTACH PARTITION ${name} ${t.partition_bound}`];
    }
    // Columns come from the parent; what the partition sets itself is given WITH OPTIONS.
    const own = columns
      .filter((c) => {
        const p = parent?.columns.find((pc) => pc.name === c.name);
        return (c.default !== null && c.default !== (p?.default ?? null)) || (!c.nullable && p?.nullable !== false);
      })
      .map((c) => `${quoteIdent(c.name)} WITH OPTIONS${c.default !== null ? ` DEFAULT ${c.default}` : ''}${c.nullable ? '' : ' NOT NULL'}`);
    const parts = [...own, ...checks];
    return [`${head} PARTITION OF ${parentSql}${parts.length ? ` (\n  ${parts.join(',\n  ')}\n)` : ''} ${t.partition_bound}${partitionBy}${options}`];
  }
  const local = columns.filter((c) => c.is_local !== false).map((c) => columnSql(t, c, identity));
  const parts = [...local, ...checks];
  const inherits = t.inherits?.length ? ` INHERITS (${t.inherits.map((p) => qname(p.schema, p.name)).join(', ')})` : '';
  return [`${head} (${parts.length ? `\n  ${parts.join(',\n  ')}\n` : ''})${inherits}${partitionBy}${options}`];
}

/** Nodes of one table: the table, its keys, indexes, foreign keys and settings. */
export function tableNodes(t: TableInfo, snapshot: SchemaSnapshot, byName: ReadonlyMap<string, TableInfo>, identity: Map<string, SequenceInfo>): DdlNode[] {
  const id = relationId(t);
  const object = label(t.schema, t.name);
  const name = qname(t.schema, t.name);
  const nodes: DdlNode[] = [];
  const parents = [...(t.inherits ?? []).map((p) => byName.get(qualifiedName(p))), t.partition_of ? byName.get(t.partition_of) : undefined].filter(
    (p): p is TableInfo => p !== undefined,
  );
  nodes.push({
    id,
    rank: RANK.table,
    deps: parents.map(relationId),
    statements: createTable(t, byName, identity).map((sql) => ({ object, kind: 'table' as const, sql })),
  });

  // A foreign key on a partitioned table cannot be added to the table ONLY; keys can (pg_dump's form).
  const fkOnly = t.kind === 'partitioned_table' ? '' : 'ONLY ';
  for (const c of t.constraints) {
    // Checks are declared with the table; keys a partition has from its parent are still its own (then attached).
    if (c.type === 'check') continue;
    nodes.push({
      id: c.id ?? `con:${object}.${c.name}`,
      rank: RANK.constraint,
      deps: [id],
      statements: [{ object: `${object}.${c.name}`, kind: 'constraint', sql: `ALTER TABLE ONLY ${name} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.definition}` }],
    });
  }
  const constraintNames = new Set(t.constraints.map((c) => c.name));
  for (const i of t.indexes) {
    const backing = i.constraint !== undefined ? i.constraint !== null : i.is_primary || constraintNames.has(i.name);
    const idxId = i.id ?? `idx:${t.schema}.${i.name}`;
    if (!backing) nodes.push({ id: idxId, rank: RANK.index, deps: [id], statements: [{ object: label(t.schema, i.name), kind: 'index', sql: i.definition }] });
    if (i.parent) {
      // After this index (or the constraint it backs) and the parent's.
      const own = backing ? t.constraints.filter((c) => c.name === i.constraint).map((c) => c.id ?? `con:${object}.${c.name}`) : [idxId];
      const parentNode = findIndexNode(snapshot, i.parent);
      nodes.push({
        id: `${idxId}:attach`,
        rank: RANK.index_attach,
        deps: [...own, ...(parentNode ? [parentNode] : [])],
        statements: [
          {
            object: label(t.schema, i.name),
            kind: 'index',
            sql: `ALTER INDEX ${qname(i.parent.schema, i.parent.name)} ATTACH PARTITION ${qname(t.schema, i.name)}`,
          },
        ],
      });
    }
    if (i.clustered)
      nodes.push({
        id: `${idxId}:cluster`,
        rank: RANK.table_extra,
        deps: [idxId],
        statements: [{ object, kind: 'table', sql: `ALTER TABLE ${name} CLUSTER ON ${quoteIdent(i.name)}` }],
      });
    if (i.replica_identity && t.replica_identity === 'i') {
      nodes.push({
        id: `${idxId}:replica`,
        rank: RANK.table_extra,
        deps: [idxId],
        statements: [{ object, kind: 'table', sql: `ALTER TABLE ONLY ${name} REPLICA IDENTITY USING INDEX ${quoteIdent(i.name)}` }],
      });
    }
  }
  for (const fk of t.foreign_keys) {
    const ref = byName.get(`${fk.referenced_schema}.${fk.referenced_table}`);
    nodes.push({
      id: fk.id ?? `fk:${object}.${fk.name}`,
      rank: RANK.foreign_key,
      deps: [id, ...(ref ? [relationId(ref), ...keyNodes(ref)] : [])],
      statements: [
        { object: `${object}.${fk.name}`, kind: 'foreign_key', sql: `ALTER TABLE ${fkOnly}${name} ADD CONSTRAINT ${quoteIdent(fk.name)} ${fk.definition}` },
      ],
    });
  }
  const extra: string[] = [];
  for (const c of t.columns) {
    if (c.statistics !== undefined) extra.push(`ALTER TABLE ONLY ${name} ALTER COLUMN ${quoteIdent(c.name)} SET STATISTICS ${c.statistics}`);
    if (c.storage) extra.push(`ALTER TABLE ONLY ${name} ALTER COLUMN ${quoteIdent(c.name)} SET STORAGE ${c.storage.toUpperCase()}`);
  }
  if (t.row_security) extra.push(`ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`);
  if (t.force_row_security) extra.push(`ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`);
  if (t.replica_identity === 'f') extra.push(`ALTER TABLE ONLY ${name} REPLICA IDENTITY FULL`);
  if (t.replica_identity === 'n') extra.push(`ALTER TABLE ONLY ${name} REPLICA IDENTITY NOTHING`);
  if (extra.length)
    nodes.push({ id: `${id}:extra`, rank: RANK.table_extra, deps: [id], statements: extra.map((sql) => ({ object, kind: 'table' as const, sql })) });
  return nodes;
}

/** Nodes of a table's keys and unique indexes: what a foreign key to it may reference. */
function keyNodes(t: TableInfo): string[] {
  const label0 = label(t.schema, t.name);
  const keys = t.constraints.filter((c) => c.type === 'primary_key' || c.type === 'unique').map((c) => c.id ?? `con:${label0}.${c.name}`);
  const constraintNames = new Set(t.constraints.map((c) => c.name));
  for (const i of t.indexes) if (i.is_unique && !i.is_primary && !constraintNames.has(i.name)) keys.push(i.id ?? `idx:${t.schema}.${i.name}`);
  return keys;
}

function findIndexNode(snapshot: SchemaSnapshot, ref: { schema: string; name: string }): string | undefined {
  for (const t of snapshot.tables) {
    if (t.schema !== ref.schema) continue;
    const i = t.indexes.find((x) => x.name === ref.name);
    if (!i) continue;
    if (i.constraint) {
      const c = t.constraints.find((x) => x.name === i.constraint);
      return c ? (c.id ?? `con:${label(t.schema, t.name)}.${c.name}`) : undefined;
    }
    return i.id ?? `idx:${t.schema}.${i.name}`;
  }
  return undefined;
}

/** CREATE VIEW / MATERIALIZED VIEW with its options. */
export function viewNode(v: TableInfo): DdlNode | null {
  if (!v.view_definition) return null;
  const body = v.view_definition.trim().replace(/;$/, '');
  const options = v.options?.length ? ` WITH (${v.options.join(', ')})` : '';
  const name = qname(v.schema, v.name);
  const sql =
    v.kind === 'view'
      ? `CREATE VIEW ${name}${options} AS\n${body}`
      : `CREATE MATERIALIZED VIEW ${name}${options} AS\n${body}\nWITH ${v.populated === false ? 'NO ' : ''}DATA`;
  return {
    id: relationId(v),
    rank: RANK.view,
    deps: [],
    statements: [{ object: label(v.schema, v.name), kind: v.kind === 'view' ? 'view' : 'materialized_view', sql }],
  };
}
