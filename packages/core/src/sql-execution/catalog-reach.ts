import type { CatalogQueryable } from './catalog-queryable';

type Kind = 'f' | 'o' | 'r';

/** One object the statement reaches, with the object that led to it (null for the statement itself). */
export interface ReachedRow {
  kind: Kind;
  oid: string;
  pkind: Kind | null;
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
  /** prosrc, or the whole definition of a BEGIN ATOMIC SQL function; null for built-ins. */
  source: string | null;
  relkind: string | null;
  relrowsecurity: boolean | null;
  viewdef: string | null;
  policies: string[] | null;
}

export interface ReachStep {
  /** The probe function (statement-probe.ts) whose recorded dependencies are the statement's resolved objects; '' for none. */
  probeName: string;
  functionNames: string[];
  /** `schema.name` of schema-qualified calls. */
  qualifiedFunctionNames: string[];
  /** Operator names: user-defined operators of these names are reached. */
  operatorNames: string[];
  /** Relation names: views and tables with row-level security among them are reached. */
  relationNames: string[];
  /** Objects found before whose own dependencies are wanted now. */
  frontier: Array<{ kind: Kind; oid: string }>;
}

const KIND_OF_CLASS = `CASE d.refclassid WHEN 'pg_catalog.pg_proc'::pg_catalog.regclass THEN 'f' WHEN 'pg_catalog.pg_operator'::pg_catalog.regclass THEN 'o' ELSE 'r' END`;
const FOLLOWED = `d.deptype = 'n' AND d.refclassid IN ('pg_catalog.pg_proc'::pg_catalog.regclass, 'pg_catalog.pg_operator'::pg_catalog.regclass, 'pg_catalog.pg_class'::pg_catalog.regclass)`;

/**
 * One step of the walk, in one round trip: the objects the seeds name (the probe's recorded
 * dependencies, functions, user-defined operators and relations by name) and the next level
 * below the frontier (an operator's function; an aggregate's transition, final, combine,
 * (de)serial and moving-aggregate functions and sort operator; what a function, a view's rewrite
 * rule or a row-level security policy was recorded to depend on), each with what judging it
 * needs. Built-in objects are "pinned" and never recorded in pg_depend, so bodies, view
 * definitions and policy expressions come back to be read for names. Every branch is an index
 * look-up: the walk must stay cheap on every agent request.
 */
const REACH_SQL = `
WITH found(kind, oid, pkind, poid) AS (
  SELECT ${KIND_OF_CLASS}, d.refobjid, NULL::text, NULL::pg_catalog.oid FROM pg_catalog.pg_depend d
   WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND $1::text <> '' AND ${FOLLOWED}
     AND d.objid = (SELECT pr.oid FROM pg_catalog.pg_proc pr WHERE pr.proname = $1::text AND pr.pronamespace = pg_catalog.pg_my_temp_schema())
  UNION ALL
  SELECT 'f', p.oid, NULL, NULL FROM pg_catalog.pg_proc p WHERE p.proname = ANY($2::text[])
  UNION ALL
  SELECT 'f', p.oid, NULL, NULL FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
   WHERE p.proname = ANY(ARRAY(SELECT split_part(q, '.', 2) FROM unnest($3::text[]) q)) AND (n.nspname || '.' || p.proname) = ANY($3::text[])
  UNION ALL
  SELECT 'o', o.oid, NULL, NULL FROM pg_catalog.pg_operator o WHERE o.oprname = ANY($4::text[]) AND o.oid >= 16384
  UNION ALL
  SELECT 'r', c.oid, NULL, NULL FROM pg_catalog.pg_class c WHERE c.relname = ANY($5::text[]) AND (c.relkind = 'v' OR c.relrowsecurity)
  UNION ALL
  SELECT 'f', o.oprcode::pg_catalog.oid, 'o', o.oid FROM pg_catalog.pg_operator o WHERE o.oid = ANY($6::pg_catalog.oid[]) AND o.oprcode <> 0
  UNION ALL
  SELECT 'f', fn, 'f', a.aggfnoid::pg_catalog.oid FROM pg_catalog.pg_aggregate a,
    LATERAL unnest(ARRAY[a.aggtransfn, a.aggfinalfn, a.aggcombinefn, a.aggserialfn, a.aggdeserialfn, a.aggmtransfn, a.aggminvtransfn, a.aggmfinalfn]::pg_catalog.oid[]) fn
   WHERE a.aggfnoid = ANY($7::pg_catalog.regproc[]) AND fn <> 0
  UNION ALL
  SELECT 'o', a.aggsortop, 'f', a.aggfnoid::pg_catalog.oid FROM pg_catalog.pg_aggregate a WHERE a.aggfnoid = ANY($7::pg_catalog.regproc[]) AND a.aggsortop <> 0
  UNION ALL
  SELECT ${KIND_OF_CLASS}, d.refobjid, 'f', d.objid FROM pg_catalog.pg_depend d
   WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = ANY($7::pg_catalog.oid[]) AND ${FOLLOWED}
  UNION ALL
  SELECT ${KIND_OF_CLASS}, d.refobjid, 'r', w.ev_class FROM pg_catalog.pg_rewrite w
    JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid = w.oid
   WHERE w.ev_class = ANY($8::pg_catalog.oid[]) AND ${FOLLOWED} AND d.refobjid <> w.ev_class
  UNION ALL
  SELECT ${KIND_OF_CLASS}, d.refobjid, 'r', pol.polrelid FROM pg_catalog.pg_policy pol
    JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_policy'::pg_catalog.regclass AND d.objid = pol.oid
   WHERE pol.polrelid = ANY($8::pg_catalog.oid[]) AND ${FOLLOWED} AND d.refobjid <> pol.polrelid
)
SELECT x.kind, x.oid::text AS oid, x.pkind, x.poid::text AS poid,
       CASE x.kind WHEN 'f' THEN x.oid::pg_catalog.regprocedure::text WHEN 'o' THEN x.oid::pg_catalog.regoperator::text ELSE x.oid::pg_catalog.regclass::text END AS label,
       p.proname::text, p.prokind::text, p.provolatile::text, p.lanname::text,
       x.oid < 16384 AS builtin,
       (x.kind = 'f' AND x.oid >= 16384 AND EXISTS (SELECT 1 FROM pg_catalog.pg_depend e
          WHERE e.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND e.objid = x.oid AND e.deptype = 'e')) AS extension,
       (p.lanname = 'sql' AND p.prosrc ~ '^\\s*$') AS atomic,
       CASE WHEN x.oid >= 16384 AND p.prokind IN ('f', 'p', 'w') THEN
         CASE WHEN p.lanname = 'sql' AND p.prosrc ~ '^\\s*$' THEN pg_catalog.pg_get_functiondef(x.oid) ELSE p.prosrc END
       END AS source,
       c.relkind::text, c.relrowsecurity,
       CASE WHEN c.relkind = 'v' THEN pg_catalog.pg_get_viewdef(x.oid) END AS viewdef,
       CASE WHEN c.relrowsecurity THEN (SELECT array_agg(concat_ws(' AND ', pg_catalog.pg_get_expr(pol.polqual, pol.polrelid), pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid)))
          FROM pg_catalog.pg_policy pol WHERE pol.polrelid = x.oid) END AS policies
  FROM found x
  LEFT JOIN LATERAL (SELECT pp.proname, pp.prokind, pp.provolatile, pp.prosrc, lg.lanname FROM pg_catalog.pg_proc pp
                       JOIN pg_catalog.pg_language lg ON lg.oid = pp.prolang WHERE x.kind = 'f' AND pp.oid = x.oid) p ON true
  LEFT JOIN LATERAL (SELECT cc.relkind, cc.relrowsecurity FROM pg_catalog.pg_class cc WHERE x.kind = 'r' AND cc.oid = x.oid) c ON true`;

/**
 * Not a named (prepared) statement: pooled sessions end every request with `DISCARD ALL`, which
 * deallocates prepared statements (and must, or a human request could plant a statement under
 * the guardrail's name), so a name would save no planning.
 */
export async function reachInCatalog(db: CatalogQueryable, step: ReachStep): Promise<ReachedRow[]> {
  const { rows } = await db.query<ReachedRow>(REACH_SQL, [
    step.probeName,
    step.functionNames,
    step.qualifiedFunctionNames,
    step.operatorNames,
    step.relationNames,
    step.frontier.filter((f) => f.kind === 'o').map((f) => f.oid),
    step.frontier.filter((f) => f.kind === 'f').map((f) => f.oid),
    step.frontier.filter((f) => f.kind === 'r').map((f) => f.oid),
  ]);
  return rows;
}
