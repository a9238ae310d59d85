import type { StatementKind } from './guardrail';

/**
 * Functions blocked by name, whatever the catalog says, because what they do is outside the
 * guardrail matrix: reaching other servers or the server's file system, running SQL given as a
 * string, changing settings, signalling other sessions, administering the server.
 */
const OTHER_EXACT = new Set([
  'lo_import', 'lo_export', 'lo_create', 'lo_creat', 'lo_unlink', 'lo_from_bytea', 'lo_put', 'lo_open', 'lowrite', 'lo_truncate', 'lo_truncate64',
  'pg_read_file', 'pg_read_binary_file', 'pg_stat_file', 'pg_ls_dir', 'pg_file_write', 'pg_file_rename', 'pg_file_unlink', 'pg_file_sync', 'pg_logdir_ls',
  'pg_terminate_backend', 'pg_cancel_backend', 'pg_reload_conf', 'pg_rotate_logfile', 'pg_promote', 'pg_switch_wal', 'pg_create_restore_point',
  'pg_log_backend_memory_contexts', 'pg_logical_emit_message', 'pg_import_system_collations', 'pg_backup_start', 'pg_backup_stop',
  'set_config', 'pg_notify',
  'query_to_xml', 'query_to_xml_and_xmlschema', 'query_to_xmlschema', 'cursor_to_xml', 'cursor_to_xmlschema', 'ts_stat',
  'database_to_xml', 'database_to_xml_and_xmlschema', 'schema_to_xml', 'schema_to_xml_and_xmlschema',
]);

/** Name prefixes of function families blocked like {@link OTHER_EXACT}. */
const OTHER_PREFIXES = ['dblink', 'pg_ls_', 'pg_stat_reset', 'pg_replication_origin_', 'pg_create_logical_replication_slot', 'pg_create_physical_replication_slot', 'pg_drop_replication_slot', 'pg_copy_'];

/** Functions that write (sequences) or take locks that outlive the statement: DML for the matrix. */
const DML_EXACT = new Set(['nextval', 'setval', 'txid_current', 'pg_current_xact_id']);
const DML_PREFIXES = ['pg_advisory_', 'pg_try_advisory_'];

/**
 * VOLATILE functions of `pg_catalog` that only read or compute (random values, clocks, sleeping),
 * allowed at every level. Any other VOLATILE function is DDL-level: its effects are unknown.
 */
export const VOLATILE_ALLOW_LIST: ReadonlySet<string> = new Set([
  'random', 'random_normal', 'gen_random_uuid', 'clock_timestamp', 'timeofday',
  'pg_sleep', 'pg_sleep_for', 'pg_sleep_until',
]);

/** How a function name alone classifies a call, or null when only the catalog can tell. */
export function kindOfFunctionName(name: string): StatementKind | null {
  if (OTHER_EXACT.has(name) || OTHER_PREFIXES.some((p) => name.startsWith(p))) return 'other';
  if (DML_EXACT.has(name) || DML_PREFIXES.some((p) => name.startsWith(p))) return 'dml';
  return null;
}
