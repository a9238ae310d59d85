import { ownObject, userSchema } from './schema-filter';

/** Row of {@link uncapturedQuery}. */
export interface UncapturedRow {
  kind: string;
  schema: string;
  name: string;
}

const kind = (label: string, catalog: string, alias: string, nameCol: string, nspCol: string, where = 'true'): string =>
  `SELECT '${label}' AS kind, n.nspname AS schema, ${alias}.${nameCol}::text AS name
   FROM ${catalog} ${alias} JOIN pg_namespace n ON n.oid = ${alias}.${nspCol}
   WHERE ${userSchema('n')} AND ${ownObject(catalog, `${alias}.oid`)} AND ${where}`;

/**
 * Objects of the user's schemas that the schema model does not hold, so that the DDL can name
 * them as not recreated rather than leave them out silently: operators, operator classes and
 * families, collations, text search configurations and dictionaries, conversions, base types
 * with C functions, and foreign tables (their servers and user mappings are outside the schema).
 */
export const uncapturedQuery = (): string =>
  [
    kind('operator', 'pg_operator', 'o', 'oprname', 'oprnamespace'),
    kind('operator class', 'pg_opclass', 'oc', 'opcname', 'opcnamespace'),
    kind(
      'operator family',
      'pg_opfamily',
      'of',
      'opfname',
      'opfnamespace',
      `NOT EXISTS (SELECT 1 FROM pg_opclass x WHERE x.opcfamily = of.oid AND x.opcname = of.opfname)`,
    ),
    kind('collation', 'pg_collation', 'co', 'collname', 'collnamespace'),
    kind('text search configuration', 'pg_ts_config', 'tc', 'cfgname', 'cfgnamespace'),
    kind('text search dictionary', 'pg_ts_dict', 'td', 'dictname', 'dictnamespace'),
    kind('conversion', 'pg_conversion', 'cv', 'conname', 'connamespace'),
    kind('base type', 'pg_type', 'bt', 'typname', 'typnamespace', `bt.typtype = 'b' AND bt.typcategory <> 'A'`),
  ].join('\n   UNION ALL\n   ') + '\n   ORDER BY 1, 2, 3';
