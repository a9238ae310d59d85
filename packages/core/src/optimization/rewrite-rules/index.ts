import { correlatedSubqueryToJoinRule } from './correlated-subquery-to-join';
import { countToExistsRule } from './count-to-exists';
import { nonSargableRule } from './non-sargable';
import { notInToNotExistsRule } from './not-in-to-not-exists';
import { offsetToKeysetRule } from './offset-to-keyset';
import { orToUnionAllRule } from './or-to-union-all';
import type { RewriteRule } from './rewrite-context';
import { selectStarNarrowingRule } from './select-star-narrowing';

/** Every rewrite rule; each checks its own correctness conditions. */
export const rewriteRules: ReadonlyArray<{ name: string; rule: RewriteRule }> = [
  { name: 'not-in-to-not-exists', rule: notInToNotExistsRule },
  { name: 'offset-to-keyset', rule: offsetToKeysetRule },
  { name: 'or-to-union-all', rule: orToUnionAllRule },
  { name: 'non-sargable', rule: nonSargableRule },
  { name: 'count-to-exists', rule: countToExistsRule },
  { name: 'correlated-subquery-to-join', rule: correlatedSubqueryToJoinRule },
  { name: 'select-star-narrowing', rule: selectStarNarrowingRule },
];
