import { finding, isExisting, NO_FINDINGS, type Rule } from './rule';

/** CREATE INDEX takes SHARE, blocking writes for the whole build. */
export const requireConcurrentIndexCreation: Rule = {
  name: 'require-concurrent-index-creation',
  severity: 'error',
  doc: 'Create indexes on existing tables with CREATE INDEX CONCURRENTLY.',
  kinds: ['IndexStmt'],
  check(ctx) {
    if ((ctx.facts.statement_type !== 'CREATE_INDEX' && ctx.facts.statement_type !== 'CREATE_UNIQUE_INDEX') || !isExisting(ctx)) return NO_FINDINGS;
    return [
      finding(
        this.name,
        `CREATE INDEX on ${ctx.facts.table} takes a SHARE lock and blocks INSERT, UPDATE and DELETE until the build ends.`,
        'CREATE INDEX CONCURRENTLY (outside a transaction block).',
      ),
    ];
  },
};
