import type { StatementKind } from './guardrail';

/**
 * Functions no agent level may call, whatever the catalog says and whatever reaches them (the
 * statement, an operator, an aggregate, a view, another function's body): they act outside the
 * transaction the guardrail controls. They reach other servers or sessions (dblink, backend
 * signalling, notifications), the server's file system (large objects, file access), change
 * settings, take locks or advance sequences that a rollback does not undo, run SQL given as a
 * string, or administer the server.
 */
const OTHER_EXACT = new Set([
  // large objects: lo_* below, plus the libpq-style names
  'loread',
  'lowrite',
  // file access
  'pg_read_file',
  'pg_read_binary_file',
  'pg_stat_file',
  'pg_file_write',
  'pg_file_rename',
  'pg_file_unlink',
  'pg_file_sync',
  'pg_logdir_ls',
  'pg_current_logfile',
  // backend signalling and server administration
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_promote',
  'pg_switch_wal',
  'pg_switch_xlog',
  'pg_create_restore_point',
  'pg_log_backend_memory_contexts',
  'pg_logical_emit_message',
  'pg_import_system_collations',
  'pg_start_backup',
  'pg_stop_backup',
  'pg_export_snapshot',
  'pg_stat_statements_reset',
  'pg_prewarm',
  'pg_truncate_visibility_map',
  // sequences: a rollback does not undo them
  'nextval',
  'setval',
  // settings and notifications
  'set_config',
  'pg_notify',
  // SQL given as a string
  'query_to_xml',
  'query_to_xml_and_xmlschema',
  'query_to_xmlschema',
  'cursor_to_xml',
  'cursor_to_xmlschema',
  'ts_stat',
  'database_to_xml',
  'database_to_xml_and_xmlschema',
  'schema_to_xml',
  'schema_to_xml_and_xmlschema',
  // other servers
  'postgres_fdw_disconnect',
  'postgres_fdw_disconnect_all',
]);

/** Name prefixes of function families blocked like {@link OTHER_EXACT}. */
const OTHER_PREFIXES = [
  'dblink',
  'lo_',
  'pg_ls_',
  'pg_stat_reset',
  'pg_replication_origin_',
  'pg_replication_slot_',
  'pg_logical_slot_',
  'pg_create_',
  'pg_drop_',
  'pg_copy_',
  'pg_backup_',
  'pg_wal_replay_',
  'pg_xlog_replay_',
  'binary_upgrade_',
  'pg_advisory_',
  'pg_try_advisory_',
  'http_',
];

/** Functions that change the transaction's own state only (a transaction id): DML for the matrix. */
const DML_EXACT = new Set(['txid_current', 'pg_current_xact_id']);

/**
 * VOLATILE functions of `pg_catalog` that only read or compute (random values, clocks, sleeping,
 * the session's own sequence values), allowed at every level. Any other built-in VOLATILE
 * function is DDL-level: its effects are unknown.
 */
export const VOLATILE_ALLOW_LIST: ReadonlySet<string> = new Set([
  'random',
  'random_normal',
  'gen_random_uuid',
  'clock_timestamp',
  'timeofday',
  'currval',
  'lastval',
  'pg_sleep',
  'pg_sleep_for',
  'pg_sleep_until',
  'txid_current_snapshot',
  'pg_current_snapshot',
]);

/** How a function name alone classifies a call, or null when only the catalog can tell. */
export function kindOfFunctionName(name: string): StatementKind | null {
  const n = name.toLowerCase();
  if (n === 'http' || OTHER_EXACT.has(n) || OTHER_PREFIXES.some((p) => n.startsWith(p))) return 'other';
  if (DML_EXACT.has(n)) return 'dml';
  return null;
}
