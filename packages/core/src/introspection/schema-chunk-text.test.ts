import { describe, expect, it } from 'vitest';
import { buildSchemaChunks, MAX_CHUNK_CHARS } from './schema-chunk-text';
import type { SchemaSnapshot, TableInfo } from './schema-snapshot';

const table = (schema: string, name: string, extra: Partial<TableInfo> = {}): TableInfo => ({
  schema,
  name,
  kind: 'table',
  columns: [],
  primary_key: null,
  constraints: [],
  foreign_keys: [],
  indexes: [],
  row_estimate: 0,
  pages: 0,
  total_bytes: 0,
  comment: null,
  partition_of: null,
  partition_bound: null,
  partition_key: null,
  view_definition: null,
  ...extra,
});

const snapshot = (tables: TableInfo[]): SchemaSnapshot => ({
  snapshot_id: 's',
  connection_id: 'c',
  introspected_at: '2026-11-22T00:00:00.000Z',
  server_version: '17',
  server_version_num: 170000,
  extensions: [],
  schemas: ['public'],
  tables,
  enums: [],
  sequences: [],
  view_dependencies: [],
});

describe('buildSchemaChunks', () => {
  it('writes columns, keys and foreign keys in both directions', () => {
    const col = (name: string, data_type: string, nullable = false) => ({
      name,
      ordinal: 1,
      data_type,
      udt_name: data_type,
      nullable,
      default: null,
      identity: null,
      generated: null,
      comment: null,
    });
    const users = table('public', 'users', { columns: [col('id', 'bigint')], primary_key: ['id'], comment: 'Accounts' });
    const posts = table('blog', 'posts', {
      columns: [col('id', 'bigint'), col('author_id', 'bigint')],
      primary_key: ['id'],
      foreign_keys: [
        {
          name: 'fk',
          columns: ['author_id'],
          referenced_schema: 'public',
          referenced_table: 'users',
          referenced_columns: ['id'],
          on_delete: 'set_null',
          on_update: 'no_action',
          validated: true,
          definition: '',
        },
      ],
    });
    const [u, p] = buildSchemaChunks(snapshot([users, posts]));
    expect(u!.content).toContain('table public.users: Accounts');
    expect(u!.content).toContain('- id bigint (not null, primary key)');
    expect(u!.content).toContain('referenced by blog.posts (author_id) -> (id)');
    expect(p!.content).toContain('foreign key (author_id) references public.users (id) on delete set null');
  });

  it('caps a huge table description', () => {
    const cols = Array.from({ length: 2000 }, (_, i) => ({
      name: `column_${i}`,
      ordinal: i + 1,
      data_type: 'text',
      udt_name: 'text',
      nullable: true,
      default: null,
      identity: null,
      generated: null,
      comment: 'x'.repeat(20),
    }));
    const [c] = buildSchemaChunks(snapshot([table('public', 'wide', { columns: cols })]));
    expect(c!.content.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
    expect(c!.content.endsWith('(truncated)')).toBe(true);
  });
});
