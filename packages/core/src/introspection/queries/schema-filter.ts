/**
 * SQL condition on a `pg_namespace` alias that keeps user schemas: not the catalogs, not
 * TOAST, not other sessions' temporary schemas.
 */
export const userSchema = (alias: string): string =>
  `(${alias}.nspname NOT IN ('pg_catalog', 'information_schema') AND ${alias}.nspname NOT LIKE 'pg\\_toast%' AND ${alias}.nspname NOT LIKE 'pg\\_temp\\_%')`;

/** Relation kinds the snapshot describes: tables, partitioned tables, views, materialized views, foreign tables. */
export const SNAPSHOT_RELKINDS = `('r', 'p', 'v', 'm', 'f')`;

/**
 * SQL condition: the object (`catalog` row `oidExpr`) was created by a statement of its own, not
 * by an extension (e) nor as part of another object (i: a range type's constructor functions),
 * which recreate it themselves.
 */
export const ownObject = (catalog: string, oidExpr: string): string =>
  `NOT EXISTS (SELECT 1 FROM pg_depend own WHERE own.classid = '${catalog}'::regclass AND own.objid = ${oidExpr} AND own.objsubid = 0 AND own.deptype IN ('e', 'i'))`;
