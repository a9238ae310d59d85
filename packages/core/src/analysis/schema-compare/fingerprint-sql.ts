/**
 * One catalog query describing every object of the user's schemas as `(kind, name, definition)`
 * rows, in the server's own deparsed words (`pg_get_functiondef`, `pg_get_indexdef`, ...) and
 * without oids, owners, grants, sizes or sequence positions: two databases holding the same
 * schema give the same rows, whatever order the objects were created in. Runs on PostgreSQL 13+
 * and PGlite. Objects that belong to an extension are left out (the extension row covers them).
 * The first branch types the UNION's columns: its name is cast to text, or every key would be cut
 * at `name`'s 63 bytes and two objects of a long-named table could share one.
 */
function fingerprintSql(scoped: boolean): string {
  // Scoped: only the objects whose owner (see OWNER_OF below) is in the text[] parameter $1.
  const inScope = (owner: string) => (scoped ? ` AND ${owner} = ANY($1::text[])` : '');
  return `
WITH ns AS (
  SELECT oid, nspname FROM pg_namespace
   WHERE nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND nspname NOT LIKE 'pg\\_temp\\_%' AND nspname NOT LIKE 'pg\\_toast\\_temp\\_%'
     AND oid NOT IN (SELECT objid FROM pg_depend WHERE classid = 'pg_namespace'::regclass AND deptype = 'e')
),
ext AS (SELECT classid, objid FROM pg_depend WHERE deptype = 'e'),
all_rel AS (
  SELECT c.oid, c.relname, c.relkind, n.nspname, c.relpersistence, c.reloptions, c.relrowsecurity, c.relforcerowsecurity, c.relreplident, c.relpartbound, c.relispartition,
         (SELECT 'r ' || n.nspname || '.' || coalesce(t.relname, c.relname) || '#' || coalesce(t.oid, c.oid)
            FROM (SELECT) AS one LEFT JOIN pg_index x ON x.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = x.indrelid) AS owner
    FROM pg_class c JOIN ns n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f', 'c', 'i', 'I')
     AND NOT EXISTS (SELECT 1 FROM ext WHERE ext.classid = 'pg_class'::regclass AND ext.objid = c.oid)
),
rel AS (SELECT * FROM all_rel WHERE true${inScope('owner')})
SELECT 'schema' AS kind, nspname::text AS name, coalesce(obj_description(oid, 'pg_namespace'), '') AS def, NULL::text AS owner FROM ns
UNION ALL
SELECT 'extension', extname, extversion, NULL FROM pg_extension WHERE extname <> 'plpgsql'
UNION ALL
SELECT CASE r.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'partitioned table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view'
         WHEN 'S' THEN 'sequence' WHEN 'f' THEN 'foreign table' WHEN 'c' THEN 'composite type' END,
       r.nspname || '.' || r.relname,
       concat_ws(' ',
         CASE r.relpersistence WHEN 'u' THEN 'unlogged' END,
         CASE WHEN r.relkind IN ('v', 'm') THEN pg_get_viewdef(r.oid) END,
         CASE WHEN r.relkind = 'p' THEN 'partition by ' || pg_get_partkeydef(r.oid) END,
         CASE WHEN r.relispartition THEN 'partition of ' || (SELECT i.inhparent::regclass::text FROM pg_inherits i WHERE i.inhrelid = r.oid) || ' ' || pg_get_expr(r.relpartbound, r.oid) END,
         CASE WHEN NOT r.relispartition AND r.relkind IN ('r', 'p', 'f') THEN
           (SELECT 'inherits ' || string_agg(i.inhparent::regclass::text, ', ' ORDER BY i.inhseqno) FROM pg_inherits i WHERE i.inhrelid = r.oid) END,
         CASE WHEN r.reloptions IS NOT NULL THEN 'with (' || array_to_string(r.reloptions, ', ') || ')' END,
         CASE WHEN r.relrowsecurity THEN 'row level security' END,
         CASE WHEN r.relforcerowsecurity THEN 'forced' END,
         CASE WHEN r.relkind IN ('r', 'p') AND r.relreplident <> 'd' THEN 'replica identity ' || r.relreplident::text END,
         CASE WHEN r.relkind = 'S' THEN (
           SELECT format('%s start %s increment %s min %s max %s cache %s%s', format_type(s.seqtypid, NULL), s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, CASE WHEN s.seqcycle THEN ' cycle' ELSE '' END)
             || coalesce((SELECT ' owned by ' || d.refobjid::regclass::text || '.' || a.attname FROM pg_depend d JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
                           WHERE d.classid = 'pg_class'::regclass AND d.objid = r.oid AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i') LIMIT 1), '')
             FROM pg_sequence s WHERE s.seqrelid = r.oid) END,
         CASE WHEN obj_description(r.oid, 'pg_class') IS NOT NULL THEN 'comment ' || quote_literal(obj_description(r.oid, 'pg_class')) END),
       r.owner
  FROM rel r WHERE r.relkind NOT IN ('i', 'I')
UNION ALL
SELECT 'column', r.nspname || '.' || r.relname || '.' || a.attname,
       concat_ws(' ',
         '#' || row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum),
         format_type(a.atttypid, a.atttypmod),
         CASE WHEN a.attcollation <> 0 AND a.attcollation <> t.typcollation THEN 'collate ' || (SELECT quote_ident(collname) FROM pg_collation WHERE oid = a.attcollation) END,
         CASE WHEN a.attnotnull THEN 'not null' END,
         CASE WHEN a.attgenerated = 's' THEN 'generated ' || pg_get_expr(ad.adbin, ad.adrelid) WHEN ad.adbin IS NOT NULL THEN 'default ' || pg_get_expr(ad.adbin, ad.adrelid) END,
         CASE a.attidentity WHEN 'a' THEN 'identity always' WHEN 'd' THEN 'identity by default' END,
         CASE WHEN a.attstattarget > 0 THEN 'statistics ' || a.attstattarget END,
         CASE WHEN a.attstorage <> t.typstorage THEN 'storage ' || a.attstorage::text END,
         CASE WHEN col_description(a.attrelid, a.attnum) IS NOT NULL THEN 'comment ' || quote_literal(col_description(a.attrelid, a.attnum)) END),
       r.owner
  FROM rel r JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_type t ON t.oid = a.atttypid
  LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
 WHERE r.relkind IN ('r', 'p', 'v', 'm', 'f', 'c')
UNION ALL
SELECT 'index', r.nspname || '.' || r.relname,
       concat_ws(' ', pg_get_indexdef(r.oid),
         CASE WHEN NOT x.indisvalid THEN 'invalid' END,
         CASE WHEN x.indisclustered THEN 'clustered' END,
         CASE WHEN x.indisreplident THEN 'replica identity' END,
         (SELECT 'partition of ' || i.inhparent::regclass::text FROM pg_inherits i WHERE i.inhrelid = r.oid),
         CASE WHEN obj_description(r.oid, 'pg_class') IS NOT NULL THEN 'comment ' || quote_literal(obj_description(r.oid, 'pg_class')) END),
       r.owner
  FROM rel r JOIN pg_index x ON x.indexrelid = r.oid
UNION ALL
SELECT 'constraint', coalesce(r.nspname || '.' || r.relname, tn.nspname || '.' || ty.typname) || '.' || c.conname,
       concat_ws(' ', pg_get_constraintdef(c.oid), CASE WHEN NOT c.convalidated THEN 'not validated' END,
         CASE WHEN obj_description(c.oid, 'pg_constraint') IS NOT NULL THEN 'comment ' || quote_literal(obj_description(c.oid, 'pg_constraint')) END),
       coalesce(r.owner, 't ' || tn.nspname || '.' || ty.typname || '#' || ty.oid)
  FROM pg_constraint c
  LEFT JOIN rel r ON r.oid = c.conrelid
  LEFT JOIN pg_type ty ON ty.oid = c.contypid
  LEFT JOIN ns tn ON tn.oid = ty.typnamespace
 WHERE r.oid IS NOT NULL OR (tn.oid IS NOT NULL${inScope(`'t ' || tn.nspname || '.' || ty.typname || '#' || ty.oid`)})
UNION ALL
SELECT CASE p.prokind WHEN 'p' THEN 'procedure' WHEN 'a' THEN 'aggregate' ELSE 'function' END,
       n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')',
       concat_ws(' ', CASE WHEN p.prokind = 'a' THEN pg_get_function_result(p.oid) ELSE pg_get_functiondef(p.oid) END,
         CASE WHEN obj_description(p.oid, 'pg_proc') IS NOT NULL THEN 'comment ' || quote_literal(obj_description(p.oid, 'pg_proc')) END),
       'p ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')#' || p.oid
  FROM pg_proc p JOIN ns n ON n.oid = p.pronamespace
 WHERE NOT EXISTS (SELECT 1 FROM ext WHERE ext.classid = 'pg_proc'::regclass AND ext.objid = p.oid)${inScope(`'p ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')#' || p.oid`)}
UNION ALL
SELECT CASE t.typtype WHEN 'e' THEN 'enum' WHEN 'd' THEN 'domain' WHEN 'r' THEN 'range type' END, n.nspname || '.' || t.typname,
       concat_ws(' ',
         CASE WHEN t.typtype = 'e' THEN (SELECT string_agg(quote_literal(e.enumlabel), ', ' ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = t.oid) END,
         CASE WHEN t.typtype = 'd' THEN format_type(t.typbasetype, t.typtypmod) || CASE WHEN t.typnotnull THEN ' not null' ELSE '' END || coalesce(' default ' || t.typdefault, '') END,
         CASE WHEN t.typtype = 'r' THEN (SELECT format_type(rg.rngsubtype, NULL) FROM pg_range rg WHERE rg.rngtypid = t.oid) END,
         CASE WHEN obj_description(t.oid, 'pg_type') IS NOT NULL THEN 'comment ' || quote_literal(obj_description(t.oid, 'pg_type')) END),
       't ' || n.nspname || '.' || t.typname || '#' || t.oid
  FROM pg_type t JOIN ns n ON n.oid = t.typnamespace
 WHERE t.typtype IN ('e', 'd', 'r')
   AND NOT EXISTS (SELECT 1 FROM ext WHERE ext.classid = 'pg_type'::regclass AND ext.objid = t.oid)${inScope(`'t ' || n.nspname || '.' || t.typname || '#' || t.oid`)}
UNION ALL
SELECT 'trigger', r.nspname || '.' || r.relname || '.' || tg.tgname,
       concat_ws(' ', pg_get_triggerdef(tg.oid), CASE WHEN tg.tgenabled <> 'O' THEN 'enabled ' || tg.tgenabled::text END,
         CASE WHEN obj_description(tg.oid, 'pg_trigger') IS NOT NULL THEN 'comment ' || quote_literal(obj_description(tg.oid, 'pg_trigger')) END),
       r.owner
  FROM pg_trigger tg JOIN rel r ON r.oid = tg.tgrelid WHERE NOT tg.tgisinternal
UNION ALL
SELECT 'rule', r.nspname || '.' || r.relname || '.' || rw.rulename, pg_get_ruledef(rw.oid) || CASE WHEN rw.ev_enabled <> 'O' THEN ' enabled ' || rw.ev_enabled::text ELSE '' END,
       r.owner
  FROM pg_rewrite rw JOIN rel r ON r.oid = rw.ev_class WHERE rw.rulename <> '_RETURN'
UNION ALL
SELECT 'policy', r.nspname || '.' || r.relname || '.' || po.polname,
       concat_ws(' ', po.polcmd::text, CASE WHEN po.polpermissive THEN 'permissive' ELSE 'restrictive' END,
         (SELECT string_agg(CASE WHEN x = 0 THEN 'public' ELSE pg_get_userbyid(x) END, ', ' ORDER BY 1) FROM unnest(po.polroles) AS x),
         'using ' || pg_get_expr(po.polqual, po.polrelid), 'check ' || pg_get_expr(po.polwithcheck, po.polrelid)),
       NULL
  FROM pg_policy po JOIN all_rel r ON r.oid = po.polrelid
`;
}

/**
 * Every object, with its `owner`: the object whose catalog rows define it, as the catalog census
 * (`catalog-census.ts`) names it: `r schema.table` for a relation and what hangs on it (columns,
 * its indexes, constraints, triggers, rules), `p schema.f(args)` for a routine, `t schema.type`
 * for an enum, domain or range type (and a domain's constraints), each followed by `#<oid>`; null for the rows always read
 * whole (schemas, extensions, and policies, whose text names roles, which live outside the
 * database's own catalogs).
 */
export const SCHEMA_FINGERPRINT_SQL = fingerprintSql(false);

/** The same rows for the owners listed in `$1` (text[]) and the rows always read whole. */
export const SCOPED_FINGERPRINT_SQL = fingerprintSql(true);
