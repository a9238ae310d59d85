import { userSchema } from './schema-filter';

/** Row of {@link sequencesQuery}. */
export interface SequenceRow {
  schema: string;
  name: string;
  data_type: string;
  owned_by: string | null;
}

/** Sequences with their type and the column that owns them (serial and identity columns). */
export const sequencesQuery = (): string =>
  `SELECT n.nspname AS schema, c.relname AS name, format_type(s.seqtypid, NULL) AS data_type,
     (SELECT tn.nspname || '.' || t.relname || '.' || a.attname
        FROM pg_depend d
        JOIN pg_class t ON t.oid = d.refobjid
        JOIN pg_namespace tn ON tn.oid = t.relnamespace
        JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
       WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.refclassid = 'pg_class'::regclass
         AND d.deptype IN ('a', 'i') AND d.refobjsubid > 0
       LIMIT 1) AS owned_by
   FROM pg_class c
   JOIN pg_namespace n ON n.oid = c.relnamespace
   JOIN pg_sequence s ON s.seqrelid = c.oid
   WHERE c.relkind = 'S' AND ${userSchema('n')}
   ORDER BY n.nspname, c.relname`;
