import { foreignKeyWithoutIndexRule } from './foreign-key-without-index';
import { joinKeyWithoutIndexRule } from './join-key-without-index';
import { nestedLoopInnerSeqScanRule } from './nested-loop-inner-seq-scan';
import type { IndexRule } from './rule-context';
import { seqScanFilterRule } from './seq-scan-filter';
import { sortLimitRule } from './sort-limit';

/** Every plan-based index rule, in the order their candidates are reported. */
export const indexRules: ReadonlyArray<{ name: string; rule: IndexRule }> = [
  { name: 'seq-scan-filter', rule: seqScanFilterRule },
  { name: 'nested-loop-inner-seq-scan', rule: nestedLoopInnerSeqScanRule },
  { name: 'sort-limit', rule: sortLimitRule },
  { name: 'join-key-without-index', rule: joinKeyWithoutIndexRule },
  { name: 'foreign-key-without-index', rule: foreignKeyWithoutIndexRule },
];
