import { subcommands } from './helpers';
import { finding, type Rule, type RuleFinding } from './rule';

/** Live-schema rule: PostgreSQL refuses to drop or retype a column a view reads (or CASCADE drops the view). */
export const viewDependsOnColumn: Rule = {
  name: 'view-depends-on-column',
  severity: 'error',
  live: true,
  doc: 'Dropping or retyping a column (or dropping a table) that a view reads, per the snapshot view dependencies.',
  kinds: ['AlterTableStmt', 'DropStmt'],
  check(ctx) {
    const out: RuleFinding[] = [];
    const t = ctx.facts.table;
    const cascade = ctx.facts.cascade;
    const effect = cascade ? 'CASCADE drops these views too' : 'the statement fails unless the views are dropped first';
    for (const c of [...subcommands(ctx, 'AT_DropColumn'), ...subcommands(ctx, 'AT_AlterColumnType')]) {
      const views = ctx.schema.viewsOn(t, String(c.name));
      if (views.length)
        out.push(
          finding(
            this.name,
            `Views ${views.join(', ')} read ${t}.${c.name}: ${c.subtype === 'AT_AlterColumnType' ? 'PostgreSQL refuses to change the type of a column used by a view' : effect}.`,
            'drop and recreate the views in the same migration, after updating their definitions.',
          ),
        );
    }
    if (ctx.facts.statement_type === 'DROP_TABLE') {
      for (const l of ctx.facts.locks) {
        const views = ctx.schema.viewsOn(l.table);
        if (views.length) out.push(finding(this.name, `Views ${views.join(', ')} read ${l.table}: ${effect}.`, 'drop or rewrite the views explicitly first.'));
      }
    }
    return out;
  },
};
