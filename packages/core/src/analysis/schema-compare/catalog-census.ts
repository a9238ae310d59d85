/**
 * A census of a database's own catalogs: how many rows each catalog holds per owner (the object
 * those rows define, named as the schema fingerprint names it: `r schema.table`, `p schema.f(args)`,
 * `t schema.type`), and how many of them a transaction at or after a given one wrote (`xmin`).
 *
 * It lets a rollback proof re-read only the objects a round trip touched (issue #34) without
 * weakening it. A catalog row is never changed in place where the fingerprint can see it: an
 * UPDATE writes a new row version with a new `xmin`, a DELETE removes it. So an owner none of
 * whose rows were written since the round trip began, and which holds as many rows as before,
 * holds the very rows it held: everything the fingerprint says of it is as it was, unless it
 * names another object, whose own rows then changed (and whose own keys carry the name). The
 * rest is refused to the fast path (`fastPathRefusal`): any change in a catalog outside the
 * owners' (namespaces, operators, collations, languages...: they change how other objects read),
 * a touched owner the fingerprint does not show (an extension's type), or a row whose owner the
 * census cannot name.
 */

/** `<catalog> <owner>` -> rows; `fresh`: how many of them were written at or after the round trip's first transaction. */
export type CatalogCensus = ReadonlyMap<string, { rows: number; fresh: number }>;

/** Rows of a catalog the census does not split by owner (`<catalog> *`). */
export const WHOLE = '*';
/** Owners that name no object of the fingerprint: system objects, rows the census cannot place. */
export const SYSTEM_OWNER = 'sys';
export const UNKNOWN_OWNER = 'x';
/** Toast tables and their indexes: no object's text depends on them. */
export const IGNORED_OWNER = '-';
/** A schema's comment: the fingerprint reads schemas whole every time. */
export const SCHEMA_OWNER = 'n';

/**
 * Catalogs left out: statistics and large objects (data, never part of a definition), and those
 * shared by every database of the server (roles, databases, tablespaces), which other runs on the
 * same server change at any time; the only thing of theirs the fingerprint shows, role names in
 * policies, is read whole every time.
 */
const LEFT_OUT = ['pg_statistic', 'pg_statistic_ext_data', 'pg_largeobject', 'pg_largeobject_metadata'];

/** Owners of the rows of the catalogs the census splits, and the census itself. `$1`: the first xid of the round trip as text, or null. */
export const CATALOG_CENSUS_SQL = `
WITH sys AS (SELECT oid FROM pg_namespace WHERE nspname IN ('pg_catalog', 'information_schema')),
ro AS (
  SELECT c.oid, CASE WHEN c.relnamespace IN (SELECT oid FROM sys) THEN '${SYSTEM_OWNER}'
                     WHEN n.nspname = 'pg_toast' OR n.nspname LIKE 'pg\\_toast\\_temp\\_%' THEN '${IGNORED_OWNER}'
                     ELSE 'r ' || n.nspname || '.' || coalesce(t.relname, c.relname) || '#' || coalesce(t.oid, c.oid) END AS owner
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_index x ON x.indexrelid = c.oid
    LEFT JOIN pg_class t ON t.oid = x.indrelid
),
po AS (
  SELECT p.oid, CASE WHEN p.pronamespace IN (SELECT oid FROM sys) THEN '${SYSTEM_OWNER}'
                     ELSE 'p ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')#' || p.oid END AS owner
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
),
tb AS (
  SELECT t.oid, t.typelem, t.typcategory, CASE WHEN t.typnamespace IN (SELECT oid FROM sys) THEN '${SYSTEM_OWNER}'
                     WHEN t.typrelid <> 0 THEN coalesce((SELECT ro.owner FROM ro WHERE ro.oid = t.typrelid), '${UNKNOWN_OWNER}')
                     ELSE 't ' || n.nspname || '.' || t.typname || '#' || t.oid END AS owner
    FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
),
tyo AS (
  SELECT t.oid, CASE WHEN t.typcategory = 'A' AND t.typelem <> 0 AND t.owner <> '${SYSTEM_OWNER}' THEN coalesce(e.owner, '${UNKNOWN_OWNER}') ELSE t.owner END AS owner
    FROM tb t LEFT JOIN tb e ON e.oid = t.typelem
),
co AS (
  SELECT c.oid, CASE WHEN c.conrelid <> 0 THEN r.owner WHEN c.contypid <> 0 THEN ty.owner END AS owner
    FROM pg_constraint c LEFT JOIN ro r ON r.oid = c.conrelid LEFT JOIN tyo ty ON ty.oid = c.contypid
),
obj AS (
  SELECT 'pg_class'::regclass::oid AS classid, oid, owner FROM ro
  UNION ALL SELECT 'pg_proc'::regclass::oid, oid, owner FROM po
  UNION ALL SELECT 'pg_type'::regclass::oid, oid, owner FROM tyo
  UNION ALL SELECT 'pg_constraint'::regclass::oid, oid, owner FROM co
  UNION ALL SELECT 'pg_attrdef'::regclass::oid, d.oid, r.owner FROM pg_attrdef d JOIN ro r ON r.oid = d.adrelid
  UNION ALL SELECT 'pg_trigger'::regclass::oid, tg.oid, r.owner FROM pg_trigger tg JOIN ro r ON r.oid = tg.tgrelid
  UNION ALL SELECT 'pg_rewrite'::regclass::oid, rw.oid, r.owner FROM pg_rewrite rw JOIN ro r ON r.oid = rw.ev_class
  UNION ALL SELECT 'pg_policy'::regclass::oid, pl.oid, r.owner FROM pg_policy pl JOIN ro r ON r.oid = pl.polrelid
),
split(cat, owner, xm) AS (
  SELECT 'pg_class', r.owner, c.xmin FROM pg_class c LEFT JOIN ro r ON r.oid = c.oid
  UNION ALL SELECT 'pg_attribute', r.owner, a.xmin FROM pg_attribute a LEFT JOIN ro r ON r.oid = a.attrelid
  UNION ALL SELECT 'pg_attrdef', r.owner, d.xmin FROM pg_attrdef d LEFT JOIN ro r ON r.oid = d.adrelid
  UNION ALL SELECT 'pg_index', r.owner, x.xmin FROM pg_index x LEFT JOIN ro r ON r.oid = x.indexrelid
  UNION ALL SELECT 'pg_constraint', o.owner, c.xmin FROM pg_constraint c LEFT JOIN co o ON o.oid = c.oid
  UNION ALL SELECT 'pg_trigger', r.owner, tg.xmin FROM pg_trigger tg LEFT JOIN ro r ON r.oid = tg.tgrelid
  UNION ALL SELECT 'pg_rewrite', r.owner, rw.xmin FROM pg_rewrite rw LEFT JOIN ro r ON r.oid = rw.ev_class
  UNION ALL SELECT 'pg_policy', r.owner, pl.xmin FROM pg_policy pl LEFT JOIN ro r ON r.oid = pl.polrelid
  UNION ALL SELECT 'pg_inherits', r.owner, i.xmin FROM pg_inherits i LEFT JOIN ro r ON r.oid = i.inhrelid
  UNION ALL SELECT 'pg_partitioned_table', r.owner, pt.xmin FROM pg_partitioned_table pt LEFT JOIN ro r ON r.oid = pt.partrelid
  UNION ALL SELECT 'pg_sequence', r.owner, s.xmin FROM pg_sequence s LEFT JOIN ro r ON r.oid = s.seqrelid
  UNION ALL SELECT 'pg_proc', o.owner, p.xmin FROM pg_proc p LEFT JOIN po o ON o.oid = p.oid
  UNION ALL SELECT 'pg_aggregate', o.owner, a.xmin FROM pg_aggregate a LEFT JOIN po o ON o.oid = a.aggfnoid
  UNION ALL SELECT 'pg_type', o.owner, t.xmin FROM pg_type t LEFT JOIN tyo o ON o.oid = t.oid
  UNION ALL SELECT 'pg_enum', o.owner, e.xmin FROM pg_enum e LEFT JOIN tyo o ON o.oid = e.enumtypid
  UNION ALL SELECT 'pg_range', o.owner, rg.xmin FROM pg_range rg LEFT JOIN tyo o ON o.oid = rg.rngtypid
  UNION ALL SELECT 'pg_description', CASE WHEN d.classoid = 'pg_namespace'::regclass THEN '${SCHEMA_OWNER}' ELSE o.owner END, d.xmin
    FROM pg_description d LEFT JOIN obj o ON o.classid = d.classoid AND o.oid = d.objoid
  -- A namespace's rows in pg_depend say whether an extension owns it, and so whether its objects show: unknown owner.
  UNION ALL SELECT 'pg_depend', o.owner, d.xmin FROM pg_depend d LEFT JOIN obj o ON o.classid = d.classid AND o.oid = d.objid
),
split_cats AS (SELECT DISTINCT cat FROM split)
SELECT cat, coalesce(owner, '${UNKNOWN_OWNER}') AS owner, count(*)::int AS rows,
       count(*) FILTER (WHERE $1::text IS NOT NULL AND age(xm) <= age($1::text::xid))::int AS fresh, NULL::text AS counted
  FROM split GROUP BY 1, 2
UNION ALL
SELECT c.relname::text, '${WHOLE}', NULL, NULL,
       query_to_xml(format('SELECT count(*) AS n, count(*) FILTER (WHERE %L::text IS NOT NULL AND age(xmin) <= age(%L::text::xid)) AS f FROM pg_catalog.%I', $1::text, $1::text, c.relname), false, true, '')::text
  FROM pg_class c
 WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind = 'r' AND NOT c.relisshared
   AND c.relname NOT IN (${LEFT_OUT.map((t) => `'${t}'`).join(', ')}) AND c.relname NOT IN (SELECT cat FROM split_cats)
   AND has_table_privilege(c.oid, 'SELECT')
`;

/** Runs one query with parameters and returns its rows: a sandbox session, a `pg` client. */
export type CensusQuery = (
  sql: string,
  params: unknown[],
) => Promise<{ rows: Array<{ cat: string; owner: string; rows: number | null; fresh: number | null; counted: string | null }> }>;

/** A count of a catalog counted whole, from `query_to_xml`'s `<row><n>..</n><f>..</f></row>` (no XML library needed). */
function wholeCount(xml: string): { rows: number; fresh: number } {
  const n = /<n>(\d+)<\/n>/.exec(xml);
  const f = /<f>(\d+)<\/f>/.exec(xml);
  if (!n || !f) throw new Error('unreadable catalog count');
  return { rows: Number(n[1]), fresh: Number(f[1]) };
}

/**
 * Reads the census; `sinceXid` (a 32-bit xid as text) counts the rows written at or after it as
 * fresh. PostgreSQL 13+ and PGlite.
 */
export async function readCatalogCensus(query: CensusQuery, sinceXid: string | null): Promise<CatalogCensus> {
  const out = new Map<string, { rows: number; fresh: number }>();
  for (const r of (await query(CATALOG_CENSUS_SQL, [sinceXid])).rows)
    out.set(`${r.cat} ${r.owner}`, r.counted !== null ? wholeCount(r.counted) : { rows: r.rows ?? 0, fresh: r.fresh ?? 0 });
  return out;
}

/** The next transaction's xid as the census compares it (the low 32 bits of `pg_current_xact_id`, which also takes one). */
export const CURRENT_XID_SQL = `SELECT (pg_current_xact_id()::text::numeric % 4294967296)::text AS xid`;

/**
 * Settings that change how the server words a definition (`search_path` qualifies names,
 * `DateStyle` or `extra_float_digits` reword a default's constant): all of a session's, but those
 * that cannot (time and memory limits, the application's name, the transaction's own state, and
 * the settings of loaded modules such as `plpgsql.*`, which show once a session has loaded them:
 * the server's wording is its core's). When they differ from the baseline's, only a full re-read
 * compares like with like.
 */
export const WORDING_SETTINGS_SQL = `SELECT string_agg(name || '=' || setting, E'\\n' ORDER BY name) AS settings FROM pg_settings
 WHERE context IN ('user', 'superuser') AND name NOT LIKE '%.%'
   AND name NOT IN ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout', 'idle_session_timeout', 'work_mem',
                    'maintenance_work_mem', 'temp_file_limit', 'application_name', 'transaction_isolation', 'transaction_read_only',
                    'transaction_deferrable', 'default_transaction_isolation', 'default_transaction_read_only', 'default_transaction_deferrable')`;

/**
 * The owners a round trip touched, from the census before it (`before`, read with no xid) and
 * after it (`after`, read with the round trip's first xid): those with a fresh row or a different
 * number of rows in some catalog. Or why the fast path cannot be trusted: a catalog outside the
 * owners' changed, or a touched row's owner is a system object or unknown.
 */
export function touchedOwners(before: CatalogCensus, after: CatalogCensus): { owners: Set<string> } | { refused: string } {
  const owners = new Set<string>();
  const keys = new Set([...before.keys(), ...after.keys()]);
  for (const key of keys) {
    const b = before.get(key);
    const a = after.get(key);
    if (a && b && a.fresh === 0 && a.rows === b.rows) continue;
    const cut = key.indexOf(' ');
    const cat = key.slice(0, cut);
    const owner = key.slice(cut + 1);
    if (owner === WHOLE) return { refused: `${cat} changed` };
    if (owner === SYSTEM_OWNER || owner === UNKNOWN_OWNER)
      return { refused: `${cat}: a row of ${owner === SYSTEM_OWNER ? 'a system object' : 'an unknown object'} changed` };
    if (owner !== IGNORED_OWNER && owner !== SCHEMA_OWNER) owners.add(owner);
  }
  // An owner on one side only was made, dropped or replaced (a new oid behind the same name):
  // objects that refer to it by oid may now read differently, so only a full reading can tell.
  const present = (census: CatalogCensus): Set<string> => {
    const out = new Set<string>();
    for (const [key, { rows }] of census) if (rows > 0) out.add(key.slice(key.indexOf(' ') + 1));
    return out;
  };
  const [was, is] = [present(before), present(after)];
  for (const owner of owners)
    if (!was.has(owner) || !is.has(owner)) return { refused: `${owner.slice(0, owner.lastIndexOf('#'))} was made, dropped or replaced` };
  return { owners };
}
