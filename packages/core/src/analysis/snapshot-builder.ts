import type { ColumnInfo, ForeignKeyInfo, IndexInfo, ReferentialAction, SchemaSnapshot, TableInfo } from '../introspection/schema-snapshot';

/** Compact description of a table for tests, benches and CLI fixtures. */
export interface TableSpec {
  name: string;
  schema?: string;
  /** `name type [not null] [default expr]`, e.g. "id bigint not null", "email text". */
  columns: string[];
  primaryKey?: string[];
  unique?: string[][];
  checks?: { name: string; definition: string; columns: string[] }[];
  foreignKeys?: {
    columns: string[];
    references: string;
    referencedColumns?: string[];
    onDelete?: ReferentialAction;
    onUpdate?: ReferentialAction;
    name?: string;
  }[];
  /** Secondary indexes as column lists. */
  indexes?: string[][];
  rows?: number;
  bytes?: number;
}

const UDT: Record<string, string> = {
  integer: 'int4',
  int: 'int4',
  bigint: 'int8',
  smallint: 'int2',
  boolean: 'bool',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'character varying': 'varchar',
  'double precision': 'float8',
};

function column(spec: string, ordinal: number): ColumnInfo {
  const m = /^(\S+)\s+(.+?)(\s+not null)?(?:\s+default\s+(.+))?$/i.exec(spec.trim());
  if (!m) throw new Error(`bad column spec: ${spec}`);
  const type = m[2]!.trim();
  const baseType = type.replace(/\(.*\)$/, '').replace(/^public\./, '');
  return {
    name: m[1]!,
    ordinal,
    data_type: type,
    udt_name: UDT[baseType] ?? baseType,
    nullable: !m[3],
    default: m[4] ?? null,
    identity: null,
    generated: null,
    comment: null,
  };
}

const index = (table: string, cols: string[], opts: Partial<IndexInfo> = {}): IndexInfo => ({
  name: opts.name ?? `${table}_${cols.join('_')}_idx`,
  definition: opts.definition ?? `CREATE INDEX ${table}_${cols.join('_')}_idx ON public.${table} USING btree (${cols.join(', ')})`,
  columns: cols,
  is_unique: false,
  is_primary: false,
  is_valid: true,
  method: 'btree',
  predicate: null,
  size_bytes: 8192,
  ...opts,
});

export function tableInfo(s: TableSpec): TableInfo {
  const schema = s.schema ?? 'public';
  const fks: ForeignKeyInfo[] = (s.foreignKeys ?? []).map((f) => {
    const [rs, rt] = f.references.includes('.') ? (f.references.split('.') as [string, string]) : ['public', f.references];
    const refCols = f.referencedColumns ?? ['id'];
    const act = (a?: ReferentialAction) =>
      ({
        cascade: ' ON DELETE CASCADE',
        set_null: ' ON DELETE SET NULL',
        set_default: ' ON DELETE SET DEFAULT',
        restrict: ' ON DELETE RESTRICT',
        no_action: '',
      })[a ?? 'no_action'];
    return {
      name: f.name ?? `${s.name}_${f.columns.join('_')}_fkey`,
      columns: f.columns,
      referenced_schema: rs,
      referenced_table: rt,
      referenced_columns: refCols,
      on_delete: f.onDelete ?? 'no_action',
      on_update: f.onUpdate ?? 'no_action',
      validated: true,
      definition: `FOREIGN KEY (${f.columns.join(', ')}) REFERENCES ${rs}.${rt}(${refCols.join(', ')})${act(f.onDelete)}`,
    };
  });
  const pk = s.primaryKey ?? null;
  const constraints: TableInfo['constraints'] = [];
  const indexes: IndexInfo[] = [];
  if (pk) {
    constraints.push({ name: `${s.name}_pkey`, type: 'primary_key', columns: pk, definition: `PRIMARY KEY (${pk.join(', ')})`, validated: true });
    indexes.push(
      index(s.name, pk, {
        name: `${s.name}_pkey`,
        is_unique: true,
        is_primary: true,
        definition: `CREATE UNIQUE INDEX ${s.name}_pkey ON ${schema}.${s.name} USING btree (${pk.join(', ')})`,
      }),
    );
  }
  for (const u of s.unique ?? []) {
    const name = `${s.name}_${u.join('_')}_key`;
    constraints.push({ name, type: 'unique', columns: u, definition: `UNIQUE (${u.join(', ')})`, validated: true });
    indexes.push(index(s.name, u, { name, is_unique: true, definition: `CREATE UNIQUE INDEX ${name} ON ${schema}.${s.name} USING btree (${u.join(', ')})` }));
  }
  for (const c of s.checks ?? []) constraints.push({ name: c.name, type: 'check', columns: c.columns, definition: c.definition, validated: true });
  for (const i of s.indexes ?? [])
    indexes.push(index(s.name, i, { definition: `CREATE INDEX ${s.name}_${i.join('_')}_idx ON ${schema}.${s.name} USING btree (${i.join(', ')})` }));
  const bytes = s.bytes ?? Math.max(8192, (s.rows ?? 0) * 120);
  return {
    schema,
    name: s.name,
    kind: 'table',
    columns: s.columns.map((c, k) => column(c, k + 1)),
    primary_key: pk,
    constraints,
    foreign_keys: fks,
    indexes,
    row_estimate: s.rows ?? 0,
    pages: Math.ceil(bytes / 8192),
    total_bytes: bytes,
    comment: null,
    partition_of: null,
    partition_bound: null,
    partition_key: null,
    view_definition: null,
  };
}

/** A snapshot from compact table specs (plus optional enums and views). */
export function buildSnapshot(
  tables: TableSpec[],
  extra: Partial<Pick<SchemaSnapshot, 'enums' | 'view_dependencies' | 'sequences'>> & { views?: { name: string; definition: string }[] } = {},
): SchemaSnapshot {
  const views: TableInfo[] = (extra.views ?? []).map((v) => ({
    ...tableInfo({ name: v.name, columns: [] }),
    kind: 'view',
    view_definition: v.definition,
    total_bytes: 0,
    pages: 0,
  }));
  return {
    snapshot_id: '00000000-0000-4000-8000-000000000001',
    connection_id: '00000000-0000-4000-8000-000000000002',
    introspected_at: '2026-11-22T00:00:00.000Z',
    server_version: '17.6',
    server_version_num: 170006,
    extensions: [],
    schemas: ['public'],
    tables: [...tables.map(tableInfo), ...views],
    enums: extra.enums ?? [],
    sequences: extra.sequences ?? [],
    view_dependencies: extra.view_dependencies ?? [],
  };
}
