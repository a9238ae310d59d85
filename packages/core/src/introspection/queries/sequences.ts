import { userSchema } from './schema-filter';

/** Row of {@link sequencesQuery}. */
export interface SequenceRow {
  schema: string;
  name: string;
  data_type: string;
  owned_by: string | null;
  oid: number;
  start: string;
  increment: string;
  min: string;
  max: string;
  cache: string;
  cycle: boolean;
  owner_schema: string | null;
  owner_table: string | null;
  owner_column: string | null;
  /** The owner is an identity column (dependency type i), not a serial's OWNED BY (a). */
  owner_identity: boolean | null;
}

/** Sequences with their type, parameters and the column that owns them (serial and identity columns). */
export const sequencesQuery = (): string =>
  `SELECT n.nspname AS schema, c.relname AS name, format_type(s.seqtypid, NULL) AS data_type,
     o.owner_schema || '.' || o.owner_table || '.' || o.owner_column AS owned_by,
     c.oid::int8 AS oid, s.seqstart::text AS start, s.seqincrement::text AS increment, s.seqmin::text AS min,
     s.seqmax::text AS max, s.seqcache::text AS cache, s.seqcycle AS cycle,
     o.owner_schema, o.owner_table, o.owner_column, o.owner_identity
   FROM pg_class c
   JOIN pg_namespace n ON n.oid = c.relnamespace
   JOIN pg_sequence s ON s.seqrelid = c.oid
   LEFT JOIN LATERAL (
     SELECT tn.nspname AS owner_schema, t.relname AS owner_table, a.attname AS owner_column, d.deptype = 'i' AS owner_identity
       FROM pg_depend d
       JOIN pg_class t ON t.oid = d.refobjid
       JOIN pg_namespace tn ON tn.oid = t.relnamespace
       JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
      WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.refclassid = 'pg_class'::regclass
        AND d.deptype IN ('a', 'i') AND d.refobjsubid > 0
      LIMIT 1) o ON true
   WHERE c.relkind = 'S' AND ${userSchema('n')}
   ORDER BY n.nspname, c.relname`;
