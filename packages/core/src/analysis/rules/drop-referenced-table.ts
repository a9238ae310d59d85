import { finding, NO_FINDINGS, type Rule } from './rule';

/** Live-schema rule: other tables' foreign keys point at the dropped table. */
export const dropReferencedTable: Rule = {
  name: 'drop-referenced-table',
  severity: 'error',
  live: true,
  doc: 'Dropping a table that other tables reference through foreign keys.',
  kinds: ['DropStmt'],
  check(ctx) {
    if (ctx.facts.statement_type !== 'DROP_TABLE') return NO_FINDINGS;
    const dropped = new Set(ctx.facts.locks.map((l) => l.table));
    return ctx.facts.locks.flatMap((l) => {
      const refs = ctx.schema.referencing(l.table).filter((e) => !dropped.has(e.from));
      if (!refs.length) return NO_FINDINGS;
      const list = refs.map((e) => `${e.from} (${e.fk.name})`).join(', ');
      return [
        ctx.facts.cascade
          ? finding(
              this.name,
              `${l.table} is referenced by ${list}: CASCADE drops those foreign key constraints, so their rows are no longer checked.`,
              'drop the referencing constraints explicitly and review the referencing tables first.',
            )
          : finding(
              this.name,
              `${l.table} is referenced by ${list}: DROP TABLE fails unless those constraints are dropped first (or CASCADE is used).`,
              'drop the referencing foreign keys explicitly first.',
            ),
      ];
    });
  },
};
