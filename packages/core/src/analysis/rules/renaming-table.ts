import { finding, NO_FINDINGS, type Rule } from './rule';

/** Running application code still uses the old name. */
export const renamingTable: Rule = {
  name: 'renaming-table',
  severity: 'error',
  doc: 'Renaming a table breaks clients that still use the old name.',
  kinds: ['RenameStmt'],
  check(ctx) {
    if (ctx.facts.statement_type !== 'RENAME_TABLE') return NO_FINDINGS;
    return [
      finding(
        this.name,
        `Renaming ${ctx.facts.table} breaks every deployed query that uses the old name.`,
        'rename, then create a view with the old name until all clients moved.',
      ),
    ];
  },
};
