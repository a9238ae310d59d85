import { finding, NO_FINDINGS, type Rule } from './rule';

/** Dropping a table loses its data. */
export const banDropTable: Rule = {
  name: 'ban-drop-table',
  severity: 'error',
  doc: 'Dropping a table loses all its data.',
  kinds: ['DropStmt'],
  check(ctx) {
    if (ctx.facts.statement_type !== 'DROP_TABLE') return NO_FINDINGS;
    const tables = ctx.facts.locks.map((l) => l.table).join(', ');
    return [
      finding(
        this.name,
        `DROP TABLE ${tables} deletes all rows permanently.`,
        'rename the table first and drop it after a grace period, or back it up (pg_dump -t) before dropping.',
      ),
    ];
  },
};
