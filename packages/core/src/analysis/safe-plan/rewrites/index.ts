import { batchedDml } from './batched-dml';
import { constraintNotValid } from './constraint-not-valid';
import { createIndexConcurrently } from './create-index-concurrently';
import { dropIndexConcurrently } from './drop-index-concurrently';
import { expandContractKey } from './expand-contract-key';
import { expandContractType } from './expand-contract-type';
import { notNullViaCheck } from './not-null-via-check';
import type { RewriteRule } from './rewrite-context';
import { uniqueUsingIndex } from './unique-using-index';
import { volatileDefaultBackfill } from './volatile-default-backfill';

/** Every rewrite, tried in order; the first that applies to a statement decides. */
export const REWRITE_RULES: readonly RewriteRule[] = [
  createIndexConcurrently,
  dropIndexConcurrently,
  constraintNotValid,
  notNullViaCheck,
  uniqueUsingIndex,
  expandContractKey,
  expandContractType,
  volatileDefaultBackfill,
  batchedDml,
];
