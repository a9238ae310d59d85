import { FIRST_USER_OID } from './dependencies';

/** Row of {@link commentsQuery}: the commented object's id (`catalog:oid`) and the comment. */
export interface CommentRow {
  id: string;
  comment: string;
}

/**
 * Comments on user objects other than relations and their columns (the tables and columns
 * queries read those): schemas, types, domains and their constraints, routines, table
 * constraints, indexes, sequences, triggers, rules and policies. Objects made at initdb
 * (oids below 16384) are left out; comments on objects the model does not hold (an
 * extension's, say) are dropped when the DDL is written.
 */
export const commentsQuery = (): string =>
  `SELECT d.classoid::regclass::text || ':' || d.objoid AS id, d.description AS comment
   FROM pg_description d
   WHERE d.objoid >= ${FIRST_USER_OID} AND d.objsubid = 0
     AND d.classoid IN ('pg_namespace'::regclass, 'pg_type'::regclass, 'pg_proc'::regclass, 'pg_constraint'::regclass,
                        'pg_trigger'::regclass, 'pg_rewrite'::regclass, 'pg_policy'::regclass)
   UNION ALL
   SELECT 'pg_class:' || d.objoid, d.description
   FROM pg_description d JOIN pg_class c ON c.oid = d.objoid
   WHERE d.classoid = 'pg_class'::regclass AND d.objsubid = 0 AND d.objoid >= ${FIRST_USER_OID} AND c.relkind IN ('i', 'I', 'S')`;
