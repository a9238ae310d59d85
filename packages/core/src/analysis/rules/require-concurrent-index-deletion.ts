import { finding, NO_FINDINGS, type Rule } from './rule';

/** DROP INDEX takes ACCESS EXCLUSIVE on the table. */
export const requireConcurrentIndexDeletion: Rule = {
  name: 'require-concurrent-index-deletion',
  severity: 'error',
  doc: 'Drop indexes with DROP INDEX CONCURRENTLY.',
  kinds: ['DropStmt'],
  check(ctx) {
    if (ctx.facts.statement_type !== 'DROP_INDEX') return NO_FINDINGS;
    return [
      finding(
        this.name,
        `DROP INDEX takes ACCESS EXCLUSIVE on ${ctx.facts.table || 'the indexed table'} and blocks reads and writes while it waits.`,
        'DROP INDEX CONCURRENTLY (outside a transaction block).',
      ),
    ];
  },
};
