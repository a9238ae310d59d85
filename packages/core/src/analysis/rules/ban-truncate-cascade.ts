import { finding, NO_FINDINGS, type Rule } from './rule';

/** TRUNCATE ... CASCADE empties every referencing table too, recursively. */
export const banTruncateCascade: Rule = {
  name: 'ban-truncate-cascade',
  severity: 'error',
  doc: 'TRUNCATE ... CASCADE silently empties every table that references the target.',
  kinds: ['TruncateStmt'],
  check(ctx) {
    if (ctx.facts.statement_type !== 'TRUNCATE' || !ctx.facts.cascade) return NO_FINDINGS;
    return [
      finding(
        this.name,
        `TRUNCATE ... CASCADE on ${ctx.facts.table} also empties every table referencing it through foreign keys, recursively.`,
        'truncate the intended tables explicitly by name, without CASCADE.',
      ),
    ];
  },
};
