import { nodeBody } from '../ast';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** REINDEX without CONCURRENTLY locks the table against writes (and the index against reads) for the whole rebuild. */
export const requireConcurrentReindex: Rule = {
  name: 'require-concurrent-reindex',
  severity: 'error',
  doc: 'Rebuild indexes with REINDEX ... CONCURRENTLY.',
  kinds: ['ReindexStmt'],
  check(ctx) {
    // REINDEX SYSTEM has no CONCURRENTLY form.
    if (ctx.facts.statement_type !== 'REINDEX' || nodeBody(ctx.stmt.stmt).kind === 'REINDEX_OBJECT_SYSTEM') return NO_FINDINGS;
    return [
      finding(
        this.name,
        `REINDEX without CONCURRENTLY blocks writes to ${ctx.facts.table || 'the table'} and reads through the rebuilt index until it finishes.`,
        'REINDEX ... CONCURRENTLY (PostgreSQL 12+, outside a transaction block).',
      ),
    ];
  },
};
