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

/** True when the expression calls a volatile (or unknown user-defined) function. */
export function isVolatileExpression(expr: unknown): boolean {
  return calledFunctions(expr).some((f) => VOLATILE.has(f));
}
