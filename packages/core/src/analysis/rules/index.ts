import { addingFieldWithDefault } from './adding-field-with-default';
import { addingForeignKeyConstraint } from './adding-foreign-key-constraint';
import { addingNotNullableField } from './adding-not-nullable-field';
import { addingRequiredField } from './adding-required-field';
import { addingSerialPrimaryKeyField } from './adding-serial-primary-key-field';
import { batchedAnnotation } from './batched-annotation';
import { banAlterDomainWithAddConstraint } from './ban-alter-domain-with-add-constraint';
import { banCharField } from './ban-char-field';
import { banConcurrentIndexCreationInTransaction } from './ban-concurrent-index-creation-in-transaction';
import { banCreateDomainWithConstraint } from './ban-create-domain-with-constraint';
import { banDropColumn } from './ban-drop-column';
import { banDropDatabase } from './ban-drop-database';
import { banDropNotNull } from './ban-drop-not-null';
import { banDropTable } from './ban-drop-table';
import { banTruncateCascade } from './ban-truncate-cascade';
import { banUncommittedTransaction } from './ban-uncommitted-transaction';
import { changingColumnType } from './changing-column-type';
import { constraintMissingNotValid } from './constraint-missing-not-valid';
import { disallowedUniqueConstraint } from './disallowed-unique-constraint';
import { dmlWithoutWhere } from './dml-without-where';
import { dropReferencedTable } from './drop-referenced-table';
import { fkWithoutIndex } from './fk-without-index';
import { identifierTooLong } from './identifier-too-long';
import { largeTable } from './large-table';
import { lockImpact } from './lock-impact';
import { preferBigintOverInt } from './prefer-bigint-over-int';
import { preferBigintOverSmallint } from './prefer-bigint-over-smallint';
import { preferIdentity } from './prefer-identity';
import { preferRobustStmts } from './prefer-robust-stmts';
import { preferTextField } from './prefer-text-field';
import { preferTimestamptz } from './prefer-timestamptz';
import { renamingColumn } from './renaming-column';
import { renamingTable } from './renaming-table';
import { requireConcurrentIndexCreation } from './require-concurrent-index-creation';
import { requireConcurrentIndexDeletion } from './require-concurrent-index-deletion';
import { requireConcurrentPartitionDetach } from './require-concurrent-partition-detach';
import { requireConcurrentReindex } from './require-concurrent-reindex';
import { requireEnumValueOrdering } from './require-enum-value-ordering';
import { requireLockTimeout } from './require-lock-timeout';
import { requireStatementTimeout } from './require-statement-timeout';
import type { Rule } from './rule';
import { transactionNesting } from './transaction-nesting';
import { unknownTable } from './unknown-table';
import { viewDependsOnColumn } from './view-depends-on-column';

/** Every rule, in the order their warnings appear. */
export const RULES: readonly Rule[] = [
  lockImpact,
  unknownTable,
  requireLockTimeout,
  requireStatementTimeout,
  requireConcurrentIndexCreation,
  requireConcurrentIndexDeletion,
  requireConcurrentReindex,
  requireConcurrentPartitionDetach,
  banConcurrentIndexCreationInTransaction,
  constraintMissingNotValid,
  addingForeignKeyConstraint,
  addingFieldWithDefault,
  addingRequiredField,
  addingNotNullableField,
  addingSerialPrimaryKeyField,
  disallowedUniqueConstraint,
  changingColumnType,
  renamingColumn,
  renamingTable,
  banDropColumn,
  banDropTable,
  banDropDatabase,
  banDropNotNull,
  banTruncateCascade,
  dmlWithoutWhere,
  batchedAnnotation,
  banCharField,
  preferBigintOverInt,
  preferBigintOverSmallint,
  preferIdentity,
  preferTextField,
  preferTimestamptz,
  transactionNesting,
  banUncommittedTransaction,
  requireEnumValueOrdering,
  banCreateDomainWithConstraint,
  banAlterDomainWithAddConstraint,
  preferRobustStmts,
  identifierTooLong,
  fkWithoutIndex,
  largeTable,
  viewDependsOnColumn,
  dropReferencedTable,
];
