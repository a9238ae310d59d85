import { checkConstraintCheck } from './check-constraint-check';
import { dependentsCheck } from './dependents-check';
import { domainConstraintCheck } from './domain-constraint-check';
import { foreignKeyCheck } from './foreign-key-check';
import { notNullCheck } from './not-null-check';
import { partitionBoundsCheck } from './partition-bounds-check';
import { recheckConstraintCheck } from './recheck-constraint-check';
import { typeCastCheck } from './type-cast-check';
import { validateConstraintCheck } from './validate-constraint-check';
import type { PreflightCheck } from './types';
import { uniqueCheck } from './unique-check';
import { exclusionCheck } from './exclusion-check';

/** Every preflight check, in the order their findings are reported per statement. */
export const PREFLIGHT_CHECKS: readonly PreflightCheck[] = [
  notNullCheck,
  uniqueCheck,
  exclusionCheck,
  foreignKeyCheck,
  checkConstraintCheck,
  validateConstraintCheck,
  recheckConstraintCheck,
  domainConstraintCheck,
  typeCastCheck,
  dependentsCheck,
  partitionBoundsCheck,
];
