import { calledFunctions } from './ast';

/**
 * Functions whose result differs per row, so a DEFAULT using them forces ADD COLUMN to
 * rewrite the table (PostgreSQL 11+ stores only non-volatile defaults in the catalog).
 * now()/current_timestamp are STABLE and do not rewrite.
 */
const VOLATILE = new Set([
  'random',
  'gen_random_uuid',
  'uuid_generate_v1',
  'uuid_generate_v1mc',
  'uuid_generate_v4',
  'uuidv4',
  'uuidv7',
  'clock_timestamp',
  'timeofday',
  'nextval',
  'setseed',
  'txid_current',
]);

/**
 * Built-in functions common in defaults that are STABLE or IMMUTABLE. A function outside this
 * list may be user-defined, and CREATE FUNCTION makes functions VOLATILE unless told otherwise,
 * so it counts as volatile (as squawk assumes too).
 */
const NON_VOLATILE = new Set([
  'now',
  'statement_timestamp',
  'transaction_timestamp',
  'current_setting',
  'current_database',
  'current_schema',
  'version',
  'lower',
  'upper',
  'trim',
  'btrim',
  'ltrim',
  'rtrim',
  'concat',
  'concat_ws',
  'replace',
  'substr',
  'substring',
  'left',
  'right',
  'length',
  'char_length',
  'md5',
  'encode',
  'decode',
  'format',
  'to_char',
  'to_date',
  'to_timestamp',
  'to_number',
  'make_date',
  'make_time',
  'make_timestamp',
  'make_timestamptz',
  'make_interval',
  'date_trunc',
  'date_part',
  'timezone',
  'jsonb_build_object',
  'jsonb_build_array',
  'json_build_object',
  'json_build_array',
  'to_json',
  'to_jsonb',
  'array_to_json',
  'array_fill',
  'string_to_array',
  'array_length',
  'abs',
  'round',
  'floor',
  'ceil',
  'ceiling',
  'power',
  'sqrt',
  'mod',
  'int4range',
  'int8range',
  'numrange',
  'tsrange',
  'tstzrange',
  'daterange',
  'to_tsvector',
  // SQLValueFunction ops (CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_USER, ...) as calledFunctions names them.
  'svfop_current_date',
  'svfop_current_time',
  'svfop_current_time_n',
  'svfop_current_timestamp',
  'svfop_current_timestamp_n',
  'svfop_localtime',
  'svfop_localtime_n',
  'svfop_localtimestamp',
  'svfop_localtimestamp_n',
  'svfop_current_role',
  'svfop_current_user',
  'svfop_user',
  'svfop_session_user',
  'svfop_current_catalog',
  'svfop_current_schema',
]);

/** True when the expression calls a volatile function, or one that may be user-defined (volatile by default). */
export function isVolatileExpression(expr: unknown): boolean {
  return calledFunctions(expr).some((f) => VOLATILE.has(f) || !NON_VOLATILE.has(f));
}
