import { finding, NO_FINDINGS, type Rule } from './rule';

/** CONCURRENTLY cannot run inside a transaction block; the statement fails. */
export const banConcurrentIndexCreationInTransaction: Rule = {
  name: 'ban-concurrent-index-creation-in-transaction',
  severity: 'error',
  doc: 'CREATE/DROP INDEX CONCURRENTLY fails inside a transaction block.',
  check(ctx) {
    if (!ctx.facts.non_transactional || !ctx.inTransaction) return NO_FINDINGS;
    return [
      finding(
        this.name,
        `${ctx.facts.statement_type} is inside BEGIN ... COMMIT and will fail: ${ctx.facts.non_transactional}.`,
        'move it outside the transaction block (its own migration step).',
      ),
    ];
  },
};
