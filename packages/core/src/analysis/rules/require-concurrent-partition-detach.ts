import { hasSubcommand, subcommands } from './helpers';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** DETACH PARTITION takes ACCESS EXCLUSIVE on the parent; CONCURRENTLY (PostgreSQL 14+) only SHARE UPDATE EXCLUSIVE. */
export const requireConcurrentPartitionDetach: Rule = {
  name: 'require-concurrent-partition-detach',
  severity: 'error',
  doc: 'Detach partitions with DETACH PARTITION ... CONCURRENTLY.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!hasSubcommand(ctx, 'AT_DetachPartition')) return NO_FINDINGS;
    return subcommands(ctx, 'AT_DetachPartition')
      .filter((c) => !c.def?.PartitionCmd?.concurrent)
      .map(() =>
        finding(
          this.name,
          `DETACH PARTITION takes ACCESS EXCLUSIVE on ${ctx.facts.table}: reads and writes on the whole partitioned table wait.`,
          'ALTER TABLE ... DETACH PARTITION ... CONCURRENTLY (PostgreSQL 14+, outside a transaction block).',
        ),
      );
  },
};
