import { finding, NO_FINDINGS, type Rule } from './rule';

/** A migration should never drop a database. */
export const banDropDatabase: Rule = {
  name: 'ban-drop-database',
  severity: 'error',
  doc: 'Dropping a database loses everything in it.',
  kinds: ['DropdbStmt', 'DropStmt'],
  check(ctx) {
    if (ctx.facts.statement_type !== 'DROP_DATABASE') return NO_FINDINGS;
    return [
      finding(this.name, 'DROP DATABASE deletes every table and all data of the database.', 'do this manually, after a verified backup, never in a migration.'),
    ];
  },
};
