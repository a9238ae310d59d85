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
  /**
   * What DDL needs beyond the usual, null for most relations: persistence (u for UNLOGGED),
   * storage options, row-level security, replica identity when not the default, whether a
   * materialized view holds data, INHERITS parents in order, creation by an extension.
   */
  extra: {
    relpersistence: 'p' | 'u' | 't';
    reloptions: string[] | null;
    rls: boolean;
    force_rls: boolean;
    replident: 'd' | 'n' | 'f' | 'i';
    populated: boolean;
    inherits: Array<{ schema: string; name: string }> | null;
    from_extension: boolean;
  } | null;
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
     CASE WHEN c.relpersistence <> 'p' OR c.reloptions IS NOT NULL OR c.relrowsecurity OR c.relforcerowsecurity
            OR (c.relreplident <> 'd' AND c.relkind IN ('r', 'p')) OR c.relkind = 'm' OR ih.parents IS NOT NULL OR ext.objid IS NOT NULL THEN
       json_build_object('relpersistence', c.relpersistence, 'reloptions', c.reloptions, 'rls', c.relrowsecurity,
         'force_rls', c.relforcerowsecurity, 'replident', c.relreplident, 'populated', c.relispopulated,
         'inherits', ih.parents, 'from_extension', ext.objid IS NOT NULL) END AS extra
   FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   LEFT JOIN pg_description ds ON ds.objoid = c.oid AND ds.classoid = 'pg_class'::regclass AND ds.objsubid = 0
   LEFT JOIN (SELECT i.inhrelid, json_agg(json_build_object('schema', pn.nspname, 'name', p.relname) ORDER BY i.inhseqno) AS parents
                FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace pn ON pn.oid = p.relnamespace
               WHERE p.relkind = 'r' GROUP BY i.inhrelid) ih ON ih.inhrelid = c.oid AND NOT c.relispartition
   LEFT JOIN (SELECT DISTINCT objid FROM pg_depend WHERE classid = 'pg_class'::regclass AND objsubid = 0 AND deptype = 'e') ext ON ext.objid = c.oid
   WHERE c.relkind IN ${SNAPSHOT_RELKINDS} AND ${userSchema('n')}
   ORDER BY n.nspname, c.relname`;
