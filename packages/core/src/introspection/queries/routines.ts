import { ownObject, userSchema } from './schema-filter';

/** Row of {@link routinesQuery}. */
export interface RoutineRow {
  oid: number;
  schema: string;
  name: string;
  prokind: 'f' | 'p' | 'a' | 'w';
  identity_arguments: string;
  /** `pg_get_functiondef` (functions and procedures). */
  definition: string | null;
  /** Aggregates: `pg_get_function_arguments` and the pg_aggregate fields CREATE AGGREGATE takes. */
  arguments: string | null;
  agg: {
    kind: 'n' | 'o' | 'h';
    sfunc: string;
    stype: string;
    sspace: number;
    finalfunc: string | null;
    finalfunc_extra: boolean;
    finalfunc_modify: 'r' | 's' | 'w';
    combinefunc: string | null;
    serialfunc: string | null;
    deserialfunc: string | null;
    initcond: string | null;
    msfunc: string | null;
    minvfunc: string | null;
    mstype: string | null;
    msspace: number;
    mfinalfunc: string | null;
    mfinalfunc_extra: boolean;
    mfinalfunc_modify: 'r' | 's' | 'w';
    minitcond: string | null;
    sortop: string | null;
    parallel: 's' | 'r' | 'u';
  } | null;
}

/**
 * Functions, procedures and aggregates of the user's schemas, not those an extension created.
 * Functions and procedures come whole from `pg_get_functiondef`; aggregates as the fields of
 * `pg_aggregate`, from which CREATE AGGREGATE is written.
 */
export const routinesQuery = (): string =>
  `SELECT p.oid::int8 AS oid, n.nspname AS schema, p.proname AS name, p.prokind::text AS prokind,
     pg_get_function_identity_arguments(p.oid) AS identity_arguments,
     CASE WHEN p.prokind <> 'a' THEN pg_get_functiondef(p.oid) END AS definition,
     CASE WHEN p.prokind = 'a' THEN pg_get_function_arguments(p.oid) END AS arguments,
     CASE WHEN p.prokind = 'a' THEN json_build_object(
       'kind', a.aggkind, 'sfunc', a.aggtransfn::regproc::text, 'stype', format_type(a.aggtranstype, NULL), 'sspace', a.aggtransspace,
       'finalfunc', NULLIF(a.aggfinalfn, 0)::regproc::text, 'finalfunc_extra', a.aggfinalextra, 'finalfunc_modify', a.aggfinalmodify,
       'combinefunc', NULLIF(a.aggcombinefn, 0)::regproc::text, 'serialfunc', NULLIF(a.aggserialfn, 0)::regproc::text,
       'deserialfunc', NULLIF(a.aggdeserialfn, 0)::regproc::text, 'initcond', a.agginitval,
       'msfunc', NULLIF(a.aggmtransfn, 0)::regproc::text, 'minvfunc', NULLIF(a.aggminvtransfn, 0)::regproc::text,
       'mstype', CASE WHEN a.aggmtranstype <> 0 THEN format_type(a.aggmtranstype, NULL) END, 'msspace', a.aggmtransspace,
       'mfinalfunc', NULLIF(a.aggmfinalfn, 0)::regproc::text, 'mfinalfunc_extra', a.aggmfinalextra, 'mfinalfunc_modify', a.aggmfinalmodify,
       'minitcond', a.aggminitval, 'sortop', NULLIF(a.aggsortop, 0)::regoperator::text, 'parallel', p.proparallel) END AS agg
   FROM pg_proc p
   JOIN pg_namespace n ON n.oid = p.pronamespace
   LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
   WHERE ${userSchema('n')} AND ${ownObject('pg_proc', 'p.oid')}
   ORDER BY n.nspname, p.proname, p.oid`;
