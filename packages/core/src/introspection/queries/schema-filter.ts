/**
 * SQL condition on a `pg_namespace` alias that keeps user schemas: not the catalogs, not
 * TOAST, not other sessions' temporary schemas.
 */
export const userSchema = (alias: string): string =>
  `(${alias}.nspname NOT IN ('pg_catalog', 'information_schema') AND ${alias}.nspname NOT LIKE 'pg\\_toast%' AND ${alias}.nspname NOT LIKE 'pg\\_temp\\_%')`;

/** Relation kinds the snapshot describes: tables, partitioned tables, views, materialized views, foreign tables. */
export const SNAPSHOT_RELKINDS = `('r', 'p', 'v', 'm', 'f')`;
