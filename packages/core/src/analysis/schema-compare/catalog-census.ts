import { quoteIdent, quoteLiteral } from '../../pg/quote';

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

/**
 * `counts`: `<catalog> <owner>` -> rows; `fresh`: how many of them were written at or after the
 * round trip's first transaction. `whole`: the catalogs counted whole, as the first census found
 * them (the next ones count the same list).
 */
export interface CatalogCensus {
  counts: ReadonlyMap<string, { rows: number; fresh: number }>;
  whole: readonly string[];
}

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

/**
 * Objects the server's initdb made have oids below PostgreSQL's FirstNormalObjectId; every object
 * made since (extensions, the schema, the migration's) has one at or above it, even after the oid
 * counter wraps around.
 */
const FIRST_NORMAL_OID = 16384;

/** Whether a row's xmin is at or after the round trip's first xid (`$1`, text; null: nothing is fresh). */
const FRESH = `$1::text IS NOT NULL AND age(xm) <= age($1::text::xid)`;

/** Each split catalog: the oid of the object its row belongs to, and the map from that object to its owner. */
const BRANCHES: Array<[catalog: string, key: string, owners: string, owner?: string]> = [
  ['pg_class', 'oid', 'ro'],
  ['pg_attribute', 'attrelid', 'ro'],
  ['pg_attrdef', 'adrelid', 'ro'],
  ['pg_index', 'indexrelid', 'ro'],
  ['pg_constraint', 'oid', 'co'],
  ['pg_trigger', 'tgrelid', 'ro'],
  ['pg_rewrite', 'ev_class', 'ro'],
  ['pg_policy', 'polrelid', 'ro'],
  ['pg_inherits', 'inhrelid', 'ro'],
  ['pg_partitioned_table', 'partrelid', 'ro'],
  ['pg_sequence', 'seqrelid', 'ro'],
  ['pg_proc', 'oid', 'po'],
  ['pg_aggregate', 'aggfnoid', 'po'],
  ['pg_type', 'oid', 'tyo'],
  ['pg_enum', 'enumtypid', 'tyo'],
  ['pg_range', 'rngtypid', 'tyo'],
  // A schema's comment: schemas are read whole every time.
  ['pg_description', 'objoid', 'obj', `CASE WHEN r.classoid = 'pg_namespace'::regclass THEN '${SCHEMA_OWNER}' END`],
  // A namespace's rows in pg_depend say whether an extension owns it, and so whether its objects show: its owner stays unknown.
  ['pg_depend', 'objid', 'obj'],
];

/**
 * Owners of the rows of the catalogs the census splits, per object made after initdb, and the
 * census of those catalogs: rows of initdb's objects in one `sys` count per catalog, the others
 * per owner. `$1`: the first xid of the round trip as text, or null.
 */
const SPLIT_CENSUS_SQL = `
WITH ro AS (
  SELECT c.oid, CASE WHEN n.nspname = 'pg_toast' OR n.nspname LIKE 'pg\\_toast\\_temp\\_%' THEN '${IGNORED_OWNER}'
                     ELSE 'r ' || n.nspname || '.' || coalesce(t.relname, c.relname) || '#' || coalesce(t.oid, c.oid) END AS owner
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_index x ON x.indexrelid = c.oid
    LEFT JOIN pg_class t ON t.oid = x.indrelid
   WHERE c.oid >= ${FIRST_NORMAL_OID}
),
po AS (
  SELECT p.oid, 'p ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')#' || p.oid AS owner
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.oid >= ${FIRST_NORMAL_OID}
),
tb AS (
  SELECT t.oid, t.typelem, t.typcategory,
         CASE WHEN t.typrelid <> 0 THEN coalesce(r.owner, '${UNKNOWN_OWNER}') ELSE 't ' || n.nspname || '.' || t.typname || '#' || t.oid END AS owner
    FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace LEFT JOIN ro r ON r.oid = t.typrelid
   WHERE t.oid >= ${FIRST_NORMAL_OID}
),
tyo AS (
  SELECT t.oid, CASE WHEN t.typcategory = 'A' AND t.typelem <> 0 THEN coalesce(e.owner, '${UNKNOWN_OWNER}') ELSE t.owner END AS owner
    FROM tb t LEFT JOIN tb e ON e.oid = t.typelem
),
co AS (
  SELECT c.oid, CASE WHEN c.conrelid <> 0 THEN r.owner WHEN c.contypid <> 0 THEN ty.owner END AS owner
    FROM pg_constraint c LEFT JOIN ro r ON r.oid = c.conrelid LEFT JOIN tyo ty ON ty.oid = c.contypid
   WHERE c.oid >= ${FIRST_NORMAL_OID}
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
  ${BRANCHES.map(
    ([cat, key, owners, owner]) =>
      `SELECT '${cat}', ${owner ? `coalesce(${owner}, o.owner)` : 'o.owner'}, r.xmin FROM ${cat} r LEFT JOIN ${owners} o ON o.oid = r.${key}${owners === 'obj' ? ` AND o.classid = r.${key === 'objoid' ? 'classoid' : 'classid'}` : ''} WHERE r.${key} >= ${FIRST_NORMAL_OID}`,
  ).join('\n  UNION ALL ')}
)
SELECT cat, coalesce(owner, '${UNKNOWN_OWNER}') AS owner, count(*)::int AS rows, count(*) FILTER (WHERE ${FRESH})::int AS fresh FROM split GROUP BY 1, 2
${BRANCHES.map(([cat, key]) => `UNION ALL SELECT '${cat}', '${SYSTEM_OWNER}', count(*)::int, count(*) FILTER (WHERE ${FRESH.replace('xm', 'xmin')})::int FROM ${cat} WHERE ${key} < ${FIRST_NORMAL_OID}`).join('\n')}`;

const SPLIT = BRANCHES.map(([catalog]) => catalog);

/** The catalogs of this database counted whole: every one the session may read, but those split by owner and those left out. */
const WHOLE_CATALOGS_SQL = `SELECT c.relname AS name FROM pg_class c
 WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind = 'r' AND NOT c.relisshared
   AND c.relname <> ALL($1::text[]) AND has_table_privilege(c.oid, 'SELECT') ORDER BY 1`;

/** The census: the split catalogs per owner, then each whole catalog in one count. */
export function catalogCensusSql(whole: readonly string[]): string {
  const counted = whole.map(
    (name) =>
      `SELECT ${quoteLiteral(name)}, '${WHOLE}', count(*)::int, count(*) FILTER (WHERE ${FRESH.replace('xm', 'xmin')})::int FROM pg_catalog.${quoteIdent(name)}`,
  );
  return [SPLIT_CENSUS_SQL, ...counted].join('\nUNION ALL\n');
}

/** Runs one query with parameters and returns its rows: a sandbox session, a `pg` client. */
export type CensusQuery = <T>(sql: string, params: unknown[]) => Promise<{ rows: T[] }>;

/**
 * Reads the census; `sinceXid` (a 32-bit xid as text) counts the rows written at or after it as
 * fresh; `like` is an earlier census whose list of whole catalogs this one counts (else the list
 * is read first). PostgreSQL 13+ and PGlite.
 */
export async function readCatalogCensus(query: CensusQuery, sinceXid: string | null, like?: CatalogCensus): Promise<CatalogCensus> {
  const whole = like?.whole ?? (await query<{ name: string }>(WHOLE_CATALOGS_SQL, [[...SPLIT, ...LEFT_OUT]])).rows.map((r) => r.name);
  const counts = new Map<string, { rows: number; fresh: number }>();
  for (const r of (await query<{ cat: string; owner: string; rows: number; fresh: number }>(catalogCensusSql(whole), [sinceXid])).rows)
    counts.set(`${r.cat} ${r.owner}`, { rows: r.rows, fresh: r.fresh });
  return { counts, whole };
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
  const keys = new Set([...before.counts.keys(), ...after.counts.keys()]);
  for (const key of keys) {
    const b = before.counts.get(key);
    const a = after.counts.get(key);
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
    for (const [key, { rows }] of census.counts) if (rows > 0) out.add(key.slice(key.indexOf(' ') + 1));
    return out;
  };
  const [was, is] = [present(before), present(after)];
  for (const owner of owners)
    if (!was.has(owner) || !is.has(owner)) return { refused: `${owner.slice(0, owner.lastIndexOf('#'))} was made, dropped or replaced` };
  return { owners };
}
