/** Row of {@link serverInfoQuery}. */
export interface ServerInfoRow {
  server_version: string;
  server_version_num: string;
  /** `current_schemas(false)` as text[]. */
  search_path: string[];
}

/**
 * Server version as text and as a number, and the session's effective search path: the role's
 * or database's `search_path` (a managed database's tenant schema, say) decides where the
 * unqualified names of a migration live. Cast to text[]: `pg` parses text arrays, not name[].
 */
export const serverInfoQuery = (): string =>
  `SELECT current_setting('server_version') AS server_version, current_setting('server_version_num') AS server_version_num, current_schemas(false)::text[] AS search_path`;
