import type { AstNode } from '../ast';
import { finding, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

const RETYPE = 'AT_AlterColumnType';

/** Live-schema rule: PostgreSQL refuses to drop or retype a column a view reads (or CASCADE drops the view). */
export const viewDependsOnColumn: Rule = {
  name: 'view-depends-on-column',
  severity: 'error',
  live: true,
  doc: 'Dropping or retyping a column (or dropping a table) that a view reads, per the snapshot view dependencies.',
  kinds: ['AlterTableStmt', 'DropStmt'],
  check(ctx) {
    let out: RuleFinding[] | undefined;
    const t = ctx.facts.table;
    const cascade = ctx.facts.cascade;
    const effect = cascade ? 'CASCADE drops these views too' : 'the statement fails unless the views are dropped first';
    // Dropped columns first, then retyped ones.
    const cmds = ctx.facts.subcommands;
    for (let pass = 0; pass < 2; pass++) {
      const subtype = pass === 0 ? 'AT_DropColumn' : RETYPE;
      for (let i = 0; i < cmds.length; i++) {
        const c: AstNode = cmds[i]!;
        if (c.subtype !== subtype) continue;
        const views = ctx.schema.viewsOn(t, String(c.name));
        if (views.length)
          (out ??= []).push(
            finding(
              this.name,
              `Views ${views.join(', ')} read ${t}.${c.name}: ${c.subtype === RETYPE ? 'PostgreSQL refuses to change the type of a column used by a view' : effect}.`,
              'drop and recreate the views in the same migration, after updating their definitions.',
            ),
          );
      }
    }
    if (ctx.facts.statement_type === 'DROP_TABLE') {
      for (const l of ctx.facts.locks) {
        const views = ctx.schema.viewsOn(l.table);
        if (views.length)
          (out ??= []).push(finding(this.name, `Views ${views.join(', ')} read ${l.table}: ${effect}.`, 'drop or rewrite the views explicitly first.'));
      }
    }
    return out ?? NO_FINDINGS;
  },
};
