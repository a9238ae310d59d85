import { ownObject, userSchema } from './schema-filter';

/** Row of {@link statisticsQuery}. */
export interface StatisticsRow {
  oid: number;
  schema: string;
  name: string;
  /** `pg_get_statisticsobjdef`: the whole CREATE STATISTICS. */
  definition: string;
  table_schema: string;
  table: string;
  /** `stxstattarget` when set (-1 or null: the default). */
  target: number | null;
}

/** Extended statistics objects (CREATE STATISTICS). */
export const statisticsQuery = (): string =>
  `SELECT s.oid::int8 AS oid, n.nspname AS schema, s.stxname AS name, pg_get_statisticsobjdef(s.oid) AS definition,
     tn.nspname AS table_schema, t.relname AS table,
     NULLIF((to_jsonb(s) ->> 'stxstattarget')::int, -1) AS target
   FROM pg_statistic_ext s JOIN pg_namespace n ON n.oid = s.stxnamespace
   JOIN pg_class t ON t.oid = s.stxrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace
   WHERE ${userSchema('n')} AND ${ownObject('pg_statistic_ext', 's.oid')}
   ORDER BY n.nspname, s.stxname`;
