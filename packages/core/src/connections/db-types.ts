/** The spec's db_type values (section 2); they only label the connection, all speak PostgreSQL. */
export const DB_TYPES = ['provider_a', 'postgresql_cloud_a', 'postgres_cloud_b', 'postgresql_local', 'postgresql'] as const;
export type DbType = (typeof DB_TYPES)[number];
