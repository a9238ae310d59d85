import { SNAPSHOT_RELKINDS, userSchema } from './schema-filter';

/** Row of {@link tablesQuery}. */
export interface TableRow {
  oid: number;
  schema: string;
  name: string;
  relkind: 'r' | 'p' | 'v' | 'm' | 'f';
  reltuples: number;
  relpages: number;
  comment: string | null;
  partition_of: string | null;
  partition_bound: string | null;
  partition_key: string | null;
  view_definition: string | null;
  relpersistence: 'p' | 'u' | 't';
  reloptions: string[] | null;
  rls: boolean;
  force_rls: boolean;
  replident: 'd' | 'n' | 'f' | 'i';
  populated: boolean;
  /** Parents of a table created with INHERITS, in order (null for none and for partitions). */
  inherits: Array<{ schema: string; name: string }> | null;
  /** Created by an extension (CREATE EXTENSION makes it). */
  from_extension: boolean;
}

/**
 * Tables, partitioned tables, views, materialized views and foreign tables with row estimate,
 * comment, partitioning, view body, and what DDL needs besides (persistence, storage options,
 * row-level security, replica identity, INHERITS parents, extension membership). Their sizes come from {@link relationSizesQuery}.
 */
export const tablesQuery = (): string =>
  `SELECT c.oid::int8 AS oid, n.nspname AS schema, c.relname AS name, c.relkind::text AS relkind,
     c.reltuples::float8 AS reltuples, c.relpages::int4 AS relpages,
     ds.description AS comment,
     (SELECT pn.nspname || '.' || p.relname FROM pg_inherits i
        JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace pn ON pn.oid = p.relnamespace
       WHERE i.inhrelid = c.oid AND c.relispartition LIMIT 1) AS partition_of,
     CASE WHEN c.relispartition THEN pg_get_expr(c.relpartbound, c.oid) END AS partition_bound,
     CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) END AS partition_key,
     CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid, true) END AS view_definition,
     c.relpersistence::text AS relpersistence, c.reloptions::text[] AS reloptions,
     c.relrowsecurity AS rls, c.relforcerowsecurity AS force_rls, c.relreplident::text AS replident,
     c.relispopulated AS populated,
     CASE WHEN NOT c.relispartition THEN (SELECT json_agg(json_build_object('schema', pn.nspname, 'name', p.relname) ORDER BY i.inhseqno)
        FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace pn ON pn.oid = p.relnamespace
       WHERE i.inhrelid = c.oid) END AS inherits,
     EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_class'::regclass AND e.objid = c.oid AND e.objsubid = 0 AND e.deptype = 'e') AS from_extension
   FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   LEFT JOIN pg_description ds ON ds.objoid = c.oid AND ds.classoid = 'pg_class'::regclass AND ds.objsubid = 0
   WHERE c.relkind IN ${SNAPSHOT_RELKINDS} AND ${userSchema('n')}
   ORDER BY n.nspname, c.relname`;
