import { CHECK_CONSTRAINT_CHECK } from './check-constraint-check';
import { FOREIGN_KEY_CHECK } from './foreign-key-check';
import { NOT_NULL_CHECK } from './not-null-check';
import { RECHECK_CONSTRAINT_CHECK } from './recheck-constraint-check';
import { VALIDATE_CONSTRAINT_CHECK } from './validate-constraint-check';

/**
 * The preflight checks that scan every row of the table for the condition the statement
 * validates: their wall time measures the work the validation does under its lock (the lock-time
 * estimate reads it, `measuredScans`). A check that reads a sample, an index or the catalog is
 * not one of them.
 */
export const SCANNING_CHECKS: ReadonlySet<string> = new Set([
  CHECK_CONSTRAINT_CHECK,
  NOT_NULL_CHECK,
  FOREIGN_KEY_CHECK,
  VALIDATE_CONSTRAINT_CHECK,
  RECHECK_CONSTRAINT_CHECK,
]);
