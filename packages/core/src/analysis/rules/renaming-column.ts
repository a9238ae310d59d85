import { finding, NO_FINDINGS, type Rule } from './rule';

/** Running application code still uses the old name. */
export const renamingColumn: Rule = {
  name: 'renaming-column',
  severity: 'error',
  doc: 'Renaming a column breaks clients that still use the old name.',
  kinds: ['RenameStmt'],
  check(ctx) {
    if (ctx.facts.statement_type !== 'RENAME_COLUMN') return NO_FINDINGS;
    return [
      finding(
        this.name,
        `Renaming a column of ${ctx.facts.table} breaks every deployed query that uses the old name.`,
        'add the new column, write to both, backfill, move readers, then drop the old column (or expose the new name through a view).',
      ),
    ];
  },
};
