/** Oids below this were assigned at initdb (built-in and information_schema objects). */
export const FIRST_USER_OID = 16384;

/** Row of {@link dependenciesQuery}: ids as `catalog:oid` (see `objectId`). */
export interface DependencyRow {
  obj: string;
  ref: string;
}

/**
 * The id under which DDL creates the object `classCol`/`oidCol` names. A view is its
 * `_RETURN` rule's relation; a default belongs to its table; a CHECK constraint to its table
 * or domain (both are created inline); a table's row type to the table, an array type to its
 * element type, a stand-alone composite type's relation to the type.
 */
const ddlId = (classCol: string, oidCol: string): string => `CASE ${classCol}
     WHEN 'pg_rewrite'::regclass THEN (SELECT CASE WHEN r.rulename = '_RETURN' THEN 'pg_class:' || r.ev_class ELSE 'pg_rewrite:' || r.oid END FROM pg_rewrite r WHERE r.oid = ${oidCol})
     WHEN 'pg_attrdef'::regclass THEN (SELECT 'pg_class:' || ad.adrelid FROM pg_attrdef ad WHERE ad.oid = ${oidCol})
     WHEN 'pg_constraint'::regclass THEN (SELECT CASE WHEN co.contypid <> 0 THEN 'pg_type:' || co.contypid
                                                    WHEN co.contype = 'c' THEN 'pg_class:' || co.conrelid
                                                    ELSE 'pg_constraint:' || co.oid END FROM pg_constraint co WHERE co.oid = ${oidCol})
     WHEN 'pg_type'::regclass THEN (SELECT CASE WHEN b.typrelid <> 0 AND bc.relkind <> 'c' THEN 'pg_class:' || b.typrelid ELSE 'pg_type:' || b.oid END
                                      FROM pg_type t0
                                      JOIN pg_type b ON b.oid = CASE WHEN t0.typcategory = 'A' AND t0.typelem <> 0 THEN t0.typelem ELSE t0.oid END
                                      LEFT JOIN pg_class bc ON bc.oid = b.typrelid
                                     WHERE t0.oid = ${oidCol})
     WHEN 'pg_class'::regclass THEN (SELECT CASE WHEN c.relkind = 'c' THEN 'pg_type:' || c.reltype ELSE 'pg_class:' || c.oid END FROM pg_class c WHERE c.oid = ${oidCol})
     ELSE ${classCol}::regclass::text || ':' || ${oidCol}
   END`;

/**
 * Which object needs which other first, from `pg_depend`: the normal dependencies (n) between
 * objects created after initdb, as DDL ids. Automatic and internal ones (an index on its table,
 * a sequence owned by its column) are implied by how the DDL is built, and so are a foreign
 * key's on the referenced table and its key (one pair per foreign key would be most of the
 * rows). A reference to an object an extension created is a reference to that extension.
 */
export const dependenciesQuery = (): string =>
  `SELECT DISTINCT ${ddlId('d.classid', 'd.objid')} AS obj,
     COALESCE((SELECT 'pg_extension:' || e.refobjid FROM pg_depend e
                WHERE e.classid = d.refclassid AND e.objid = d.refobjid AND e.objsubid = 0 AND e.deptype = 'e' LIMIT 1),
              ${ddlId('d.refclassid', 'd.refobjid')}) AS ref
   FROM pg_depend d
   WHERE d.deptype = 'n' AND d.objid >= ${FIRST_USER_OID} AND d.refobjid >= ${FIRST_USER_OID}
     AND d.refclassid <> 'pg_namespace'::regclass
     AND NOT (d.classid = 'pg_constraint'::regclass AND d.refclassid = 'pg_class'::regclass)`;
