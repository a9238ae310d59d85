/** Row of {@link extensionsQuery}. */
export interface ExtensionRow {
  name: string;
  version: string;
  schema: string;
  oid: number;
}

/** Installed extensions (`pg_extension`), plpgsql included. */
export const extensionsQuery = (): string =>
  `SELECT e.extname AS name, e.extversion AS version, n.nspname AS schema, e.oid::int8 AS oid
   FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   ORDER BY e.extname`;
