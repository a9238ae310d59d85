import { userSchema } from './schema-filter';

/** Row of {@link triggersQuery}. */
export interface TriggerRow {
  oid: number;
  table_schema: string;
  table: string;
  name: string;
  definition: string;
  enabled: 'O' | 'D' | 'R' | 'A';
}

/**
 * User triggers (not the internal ones behind foreign keys), without the copies a partitioned
 * table's trigger makes on its partitions (`tgparentid`, PostgreSQL 13+).
 */
export const triggersQuery = (): string =>
  `SELECT tg.oid::int8 AS oid, n.nspname AS table_schema, c.relname AS table, tg.tgname AS name,
     pg_get_triggerdef(tg.oid) AS definition, tg.tgenabled::text AS enabled
   FROM pg_trigger tg
   JOIN pg_class c ON c.oid = tg.tgrelid
   JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE NOT tg.tgisinternal AND tg.tgparentid = 0 AND ${userSchema('n')}
   ORDER BY n.nspname, c.relname, tg.tgname`;
