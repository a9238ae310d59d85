import type { SchemaStructure, TableStructure } from './read-schema';
import { qualifiedName } from './schema-snapshot';

/** One retrievable description of a table for text-to-SQL. */
export interface SchemaChunkText {
  table_schema: string;
  table_name: string;
  content: string;
}

const MAX_VIEW_DEFINITION = 800;
/** Cap per chunk, well inside embedding models' input limits (8,191 tokens for OpenAI's). */
export const MAX_CHUNK_CHARS = 12_000;

/**
 * What chunks are written from: a snapshot, or the structure alone (no sizes, no indexes), which
 * introspection has before the sizes are read, so chunks are embedded while they still are.
 */
export type ChunkSource = Pick<SchemaStructure, 'tables' | 'enums'>;

const column = (t: TableStructure, c: TableStructure['columns'][number]): string => {
  const flags = [
    c.nullable ? null : 'not null',
    t.primary_key?.includes(c.name) ? 'primary key' : null,
    c.identity ? 'identity' : null,
    c.default ? `default ${c.default}` : null,
  ].filter(Boolean);
  return `- ${c.name} ${c.data_type}${flags.length ? ` (${flags.join(', ')})` : ''}${c.comment ? `: ${c.comment}` : ''}`;
};

/**
 * The text of one table's chunk: kind, name, comment, columns with types, keys, foreign keys
 * both ways, and the enum labels of its enum columns, so a question can match on any of them.
 */
export function tableChunkText(snapshot: ChunkSource, t: TableStructure, referencedBy: ReadonlyMap<string, string[]> = referencesIndex(snapshot)): string {
  const name = qualifiedName(t);
  const lines = [`${t.kind.replace('_', ' ')} ${name}${t.comment ? `: ${t.comment}` : ''}`];
  if (t.partition_of) lines.push(`partition of ${t.partition_of} ${t.partition_bound ?? ''}`.trim());
  lines.push(`about ${t.row_estimate} rows`, 'columns:', ...t.columns.map((c) => column(t, c)));
  if (t.primary_key) lines.push(`primary key (${t.primary_key.join(', ')})`);
  for (const c of t.constraints) if (c.type === 'unique') lines.push(`unique (${c.columns.join(', ')})`);
  for (const f of t.foreign_keys) {
    lines.push(
      `foreign key (${f.columns.join(', ')}) references ${f.referenced_schema}.${f.referenced_table} (${f.referenced_columns.join(', ')}) on delete ${f.on_delete.replace('_', ' ')}`,
    );
  }
  lines.push(...(referencedBy.get(name) ?? []));
  const enumTypes = new Set(t.columns.map((c) => c.udt_name));
  for (const e of snapshot.enums) if (enumTypes.has(e.name)) lines.push(`enum ${e.schema}.${e.name}: ${e.values.join(', ')}`);
  if (t.view_definition) lines.push(`definition: ${t.view_definition.replace(/\s+/g, ' ').slice(0, MAX_VIEW_DEFINITION)}`);
  const text = lines.join('\n');
  return text.length <= MAX_CHUNK_CHARS ? text : `${text.slice(0, MAX_CHUNK_CHARS - 20)}\n... (truncated)`;
}

/** "referenced by" lines per referenced table, built once for the whole snapshot. */
function referencesIndex(snapshot: ChunkSource): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const other of snapshot.tables) {
    for (const f of other.foreign_keys) {
      const target = `${f.referenced_schema}.${f.referenced_table}`;
      const line = `referenced by ${qualifiedName(other)} (${f.columns.join(', ')}) -> (${f.referenced_columns.join(', ')})`;
      const lines = m.get(target);
      if (lines) lines.push(line);
      else m.set(target, [line]);
    }
  }
  return m;
}

/** One chunk per relation of the snapshot (or of its structure: the same chunks). */
export function buildSchemaChunks(snapshot: ChunkSource): SchemaChunkText[] {
  const refs = referencesIndex(snapshot);
  return snapshot.tables.map((t) => ({ table_schema: t.schema, table_name: t.name, content: tableChunkText(snapshot, t, refs) }));
}
