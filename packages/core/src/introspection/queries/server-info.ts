/** Row of {@link serverInfoQuery}. */
export interface ServerInfoRow {
  server_version: string;
  server_version_num: string;
  /** `current_schemas(false)` as text[]. */
  search_path: string[];
  /** `current_setting('is_superuser')`: 'on' or 'off'. */
  is_superuser: string;
  /** Roles of the cluster besides the predefined ones and the bootstrap superuser, as text[]. */
  role_names: string[];
}

/**
 * Server version as text and as a number, and the session's effective search path: the role's
 * or database's `search_path` (a managed database's tenant schema, say) decides where the
 * unqualified names of a migration live. Cast to text[]: `pg` parses text arrays, not name[].
 * Whether the role is a superuser decides what the target accepts that the sandbox role cannot
 * (writes to system catalogs: see docs/migration-analysis.md, "Catalog writes"). The cluster's
 * roles (names only; any role may read `pg_roles`) let the sandbox make those a migration grants
 * to (docs/migration-analysis.md, "Roles of the target"); OIDs from 16384 leave out the bootstrap
 * superuser and the predefined `pg_*` roles.
 */
export const serverInfoQuery = (): string =>
  `SELECT current_setting('server_version') AS server_version, current_setting('server_version_num') AS server_version_num, current_schemas(false)::text[] AS search_path, current_setting('is_superuser') AS is_superuser, ARRAY(SELECT rolname::text FROM pg_catalog.pg_roles WHERE oid >= 16384 ORDER BY rolname LIMIT 1000) AS role_names`;
