import { quoteIdent } from '../../pg/quote';
import { qualifiedName, type SchemaSnapshot, type SequenceInfo, type TableInfo } from '../schema-snapshot';
import { RANK, type DdlNode } from './ddl-statement';
import { label, qname } from './names';

/** The parameters of a sequence as CREATE SEQUENCE / IDENTITY options (empty when the snapshot has none). */
export function sequenceOptions(s: SequenceInfo, withType: boolean): string {
  if (s.start === undefined) return withType ? ` AS ${s.data_type}` : '';
  return [
    withType ? ` AS ${s.data_type}` : '',
    ` START WITH ${s.start}`,
    ` INCREMENT BY ${s.increment}`,
    ` MINVALUE ${s.min}`,
    ` MAXVALUE ${s.max}`,
    ` CACHE ${s.cache}`,
    s.cycle ? ' CYCLE' : '',
  ].join('');
}

/** The owning column: from `owner` (version 2), else by matching `owned_by` against the tables. */
function owner(s: SequenceInfo, tables: readonly TableInfo[]): { table: TableInfo; column: string } | null {
  if (s.owner) {
    const table = tables.find((t) => t.schema === s.owner!.schema && t.name === s.owner!.table);
    return table ? { table, column: s.owner.column } : null;
  }
  if (!s.owned_by) return null;
  for (const table of tables) {
    const prefix = `${qualifiedName(table)}.`;
    if (s.owned_by.startsWith(prefix) && table.columns.some((c) => c.name === s.owned_by!.slice(prefix.length)))
      return { table, column: s.owned_by.slice(prefix.length) };
  }
  return null;
}

/**
 * CREATE SEQUENCE for the sequences that are not an identity column's (those are created by
 * the column's IDENTITY clause), and OWNED BY once the owning table exists.
 */
export function sequenceNodes(snapshot: SchemaSnapshot, relationId: (t: TableInfo) => string): DdlNode[] {
  const nodes: DdlNode[] = [];
  for (const s of snapshot.sequences) {
    const own = owner(s, snapshot.tables);
    const identity = s.owner ? s.owner.identity : own?.table.columns.find((c) => c.name === own.column)?.identity != null;
    if (identity) continue;
    const id = s.id ?? `seq:${label(s.schema, s.name)}`;
    const name = qname(s.schema, s.name);
    nodes.push({
      id,
      rank: RANK.sequence,
      deps: [],
      statements: [{ object: label(s.schema, s.name), kind: 'sequence', sql: `CREATE SEQUENCE ${name}${sequenceOptions(s, true)}` }],
    });
    if (own) {
      nodes.push({
        id: `${id}:owner`,
        rank: RANK.sequence_owner,
        deps: [id, relationId(own.table)],
        statements: [
          {
            object: label(s.schema, s.name),
            kind: 'sequence',
            sql: `ALTER SEQUENCE ${name} OWNED BY ${qname(own.table.schema, own.table.name)}.${quoteIdent(own.column)}`,
          },
        ],
      });
    }
  }
  return nodes;
}
