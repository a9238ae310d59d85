import { readBatchAnnotation } from '../../migration-execution/batched-annotation';
import { batchRefusal, targetOnly } from '../../migration-execution/batch-refusal';
import { nodeKind } from '../ast';
import { namedKeyProblem, snapshotProblem } from '../safe-plan/rewrites/batched-dml';
import { finding, NO_FINDINGS, type Rule } from './rule';

const REMEDY = 'fix the statement or its dbops:batched comment, or remove the comment to run the statement as one transaction.';

/**
 * A hand-written `-- dbops:batched` comment the executor would refuse (BATCHING_REFUSED): said at
 * analysis time, with the executor's own reasons, instead of after the approval. The comment's
 * options and the statement's shape are checked offline too; the key and the table (NOT NULL,
 * unique on its own, a batchable type, no statement trigger, rule or inheritance child) against
 * the snapshot when the table was there before the migration.
 */
export const batchedAnnotation: Rule = {
  name: 'batched-annotation',
  severity: 'error',
  kinds: ['UpdateStmt', 'DeleteStmt'],
  doc: 'A -- dbops:batched comment the executor would refuse: the statement would not run.',
  check(ctx) {
    const kind = nodeKind(ctx.stmt.stmt);
    if (kind !== 'UpdateStmt' && kind !== 'DeleteStmt') return NO_FINDINGS;
    const annotation = readBatchAnnotation(ctx.stmt.sql);
    if (!annotation) return NO_FINDINGS;
    const refuse = (why: string) => [finding(this.name, `The dbops:batched comment before this statement cannot be followed: ${why}.`, REMEDY)];
    if ('error' in annotation) return refuse(annotation.error);
    // The verdict only: the batches' SQL (batchedStatement) is the executor's business.
    const why = batchRefusal(ctx.stmt.stmt, annotation.key);
    if (why) return refuse(why);
    const table = ctx.previous.some((p) => p.facts.table === ctx.facts.table) ? undefined : ctx.schema.table(ctx.facts.table);
    if (!table) return NO_FINDINGS;
    if (table.kind !== 'table' && table.kind !== 'partitioned_table') return refuse(`${table.name} is not a table`);
    const snapshot = ctx.schema.snapshot;
    const problem =
      namedKeyProblem(table, annotation.key, snapshot) ??
      snapshotProblem(table, snapshot, kind === 'DeleteStmt' ? 'DELETE' : 'UPDATE', ctx.stmt.stmt, targetOnly(ctx.stmt.stmt));
    return problem ? refuse(problem) : NO_FINDINGS;
  },
};
