import type { CatalogQueryable } from './catalog-queryable';

/** One object the statement reaches, with the object that led to it (null for the statement itself). */
export interface ReachedRow {
  kind: 'f' | 'o' | 'r';
  oid: string;
  pkind: 'f' | 'o' | 'r' | null;
  poid: string | null;
  /** regprocedure / regoperator / regclass text. */
  label: string;
  proname: string | null;
  prokind: string | null;
  provolatile: string | null;
  lanname: string | null;
  /** Shipped with the server (oid below FirstNormalObjectId). */
  builtin: boolean;
  /** Member of an installed extension. */
  extension: boolean;
  /** An SQL function with a BEGIN ATOMIC body: `source` is its whole definition. */
  atomic: boolean | null;
  /** prosrc, or the whole definition of a BEGIN ATOMIC SQL function; null for built-ins and extension members. */
  source: string | null;
  viewdef: string | null;
  policies: string[] | null;
}

export interface ReachSeeds {
  /** The probe function whose recorded dependencies are the statement's resolved objects; '0' for none. */
  probeOid: string;
  functionNames: string[];
  qualifiedFunctionNames: string[];
  operatorNames: string[];
  /** Relation names: views and tables with row-level security among them are followed. */
  relationNames: string[];
}

const KIND_OF_CLASS = `CASE d.refclassid WHEN 'pg_catalog.pg_proc'::pg_catalog.regclass THEN 'f' WHEN 'pg_catalog.pg_operator'::pg_catalog.regclass THEN 'o' ELSE 'r' END`;
const FOLLOWED_CLASSES = `d.refclassid IN ('pg_catalog.pg_proc'::pg_catalog.regclass, 'pg_catalog.pg_operator'::pg_catalog.regclass, 'pg_catalog.pg_class'::pg_catalog.regclass)`;

/**
 * Everything the seeds reach in the target's catalog, transitively: an operator reaches its
 * function; an aggregate its state, final, combine, (de)serial and moving-aggregate functions
 * and sort operator; a function, a view's rewrite rule and a row-level security policy the
 * objects the server recorded as their dependencies. Built-in objects are "pinned" and never
 * recorded, so bodies and view definitions are also returned to be read for names.
 */
const REACH_SQL = `
WITH RECURSIVE
seed(kind, oid) AS (
  SELECT ${KIND_OF_CLASS}, d.refobjid FROM pg_catalog.pg_depend d
   WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = $1::pg_catalog.oid AND $1::pg_catalog.oid <> 0 AND ${FOLLOWED_CLASSES}
  UNION
  SELECT 'f', p.oid FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
   WHERE p.proname = ANY($2::text[]) OR (n.nspname || '.' || p.proname) = ANY($3::text[])
  UNION
  SELECT 'o', o.oid FROM pg_catalog.pg_operator o WHERE o.oprname = ANY($4::text[]) AND o.oid >= 16384
  UNION
  SELECT 'r', c.oid FROM pg_catalog.pg_class c WHERE c.relname = ANY($5::text[]) AND (c.relkind = 'v' OR c.relrowsecurity)
),
reach(kind, oid, pkind, poid) AS (
  SELECT kind, oid, NULL::text, NULL::pg_catalog.oid FROM seed
  UNION
  SELECT e.kind, e.oid, r.kind, r.oid FROM reach r CROSS JOIN LATERAL (
    SELECT 'f'::text AS kind, o.oprcode::pg_catalog.oid AS oid FROM pg_catalog.pg_operator o
     WHERE r.kind = 'o' AND o.oid = r.oid AND o.oprcode <> 0
    UNION ALL
    SELECT 'f', fn FROM pg_catalog.pg_aggregate a,
      LATERAL unnest(ARRAY[a.aggtransfn, a.aggfinalfn, a.aggcombinefn, a.aggserialfn, a.aggdeserialfn, a.aggmtransfn, a.aggminvtransfn, a.aggmfinalfn]::pg_catalog.oid[]) fn
     WHERE r.kind = 'f' AND a.aggfnoid = r.oid AND fn <> 0
    UNION ALL
    SELECT 'o', a.aggsortop FROM pg_catalog.pg_aggregate a WHERE r.kind = 'f' AND a.aggfnoid = r.oid AND a.aggsortop <> 0
    UNION ALL
    SELECT ${KIND_OF_CLASS}, d.refobjid FROM pg_catalog.pg_depend d
     WHERE d.deptype = 'n' AND ${FOLLOWED_CLASSES} AND (
           (r.kind = 'f' AND d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = r.oid)
        OR (r.kind = 'r' AND d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass
            AND d.objid IN (SELECT w.oid FROM pg_catalog.pg_rewrite w WHERE w.ev_class = r.oid))
        OR (r.kind = 'r' AND d.classid = 'pg_catalog.pg_policy'::pg_catalog.regclass
            AND d.objid IN (SELECT pol.oid FROM pg_catalog.pg_policy pol WHERE pol.polrelid = r.oid)))
  ) e
)
SELECT r.kind, r.oid::text AS oid, r.pkind, r.poid::text AS poid,
       CASE r.kind WHEN 'f' THEN r.oid::pg_catalog.regprocedure::text WHEN 'o' THEN r.oid::pg_catalog.regoperator::text ELSE r.oid::pg_catalog.regclass::text END AS label,
       p.proname::text, p.prokind::text, p.provolatile::text, l.lanname::text,
       r.oid < 16384 AS builtin,
       (r.kind = 'f' AND EXISTS (SELECT 1 FROM pg_catalog.pg_depend x
          WHERE x.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND x.objid = r.oid AND x.deptype = 'e')) AS extension,
       (l.lanname = 'sql' AND p.prosrc ~ '^\\s*$') AS atomic,
       CASE WHEN r.kind = 'f' AND r.oid >= 16384 AND p.prokind IN ('f', 'p', 'w') THEN
         CASE WHEN l.lanname = 'sql' AND p.prosrc ~ '^\\s*$' THEN pg_catalog.pg_get_functiondef(p.oid) ELSE p.prosrc END
       END AS source,
       CASE WHEN c.relkind = 'v' THEN pg_catalog.pg_get_viewdef(c.oid) END AS viewdef,
       (SELECT array_agg(concat_ws(' AND ', pg_catalog.pg_get_expr(pol.polqual, pol.polrelid), pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid)))
          FROM pg_catalog.pg_policy pol WHERE r.kind = 'r' AND pol.polrelid = r.oid) AS policies
  FROM reach r
  LEFT JOIN pg_catalog.pg_proc p ON r.kind = 'f' AND p.oid = r.oid
  LEFT JOIN pg_catalog.pg_language l ON l.oid = p.prolang
  LEFT JOIN pg_catalog.pg_class c ON r.kind = 'r' AND c.oid = r.oid`;

export async function reachInCatalog(db: CatalogQueryable, seeds: ReachSeeds): Promise<ReachedRow[]> {
  const { rows } = await db.query<ReachedRow>(REACH_SQL, [
    seeds.probeOid,
    seeds.functionNames,
    seeds.qualifiedFunctionNames,
    seeds.operatorNames,
    seeds.relationNames,
  ]);
  return rows;
}
