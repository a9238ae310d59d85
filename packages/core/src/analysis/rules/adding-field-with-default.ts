import type { AstNode } from '../ast';
import { isVolatileExpression } from '../volatility';
import { columnConstraints, columnDefs, hasSubcommand } from './helpers';
import { finding, isExisting, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

// An identity or stored generated column is filled for every existing row, whatever the version.
const REWRITES = new Set(['CONSTR_IDENTITY', 'CONSTR_GENERATED']);

/** The new column fills every existing row with a value computed per row. */
function rewrites(col: AstNode, before11: boolean): boolean {
  const list = col.constraints as AstNode[] | undefined;
  if (list)
    for (let i = 0; i < list.length; i++) {
      const k = list[i]!.Constraint as AstNode;
      if (REWRITES.has(k.contype) || (k.contype === 'CONSTR_DEFAULT' && (before11 || isVolatileExpression(k.raw_expr)))) return true;
    }
  return false;
}

function what(col: AstNode, before11: boolean): string {
  const kinds = columnConstraints(col).map((k) => k.contype);
  if (kinds.includes('CONSTR_IDENTITY')) return 'is an identity column';
  if (kinds.includes('CONSTR_GENERATED')) return 'is a stored generated column';
  return before11 ? 'has a DEFAULT' : 'has a volatile DEFAULT (or one calling a function that may be volatile)';
}

/** Since PostgreSQL 11 only a volatile default forces a table rewrite on ADD COLUMN; before, any default does. */
export const addingFieldWithDefault: Rule = {
  name: 'adding-field-with-default',
  severity: 'error',
  doc: 'Adding a column with a volatile DEFAULT (random(), gen_random_uuid(), clock_timestamp()) rewrites the table.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    // No ADD COLUMN, nothing to say: the cheapest test first.
    if (!hasSubcommand(ctx, 'AT_AddColumn') || !ctx.facts.statement_type.startsWith('ALTER_TABLE') || !isExisting(ctx)) return NO_FINDINGS;
    const before11 = ctx.schema.snapshot.server_version_num > 0 && ctx.schema.snapshot.server_version_num < 110_000;
    const cols = columnDefs(ctx);
    let out: RuleFinding[] | undefined;
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i]!;
      if (!rewrites(c, before11)) continue;
      (out ??= []).push(
        finding(
          this.name,
          `Column ${c.colname} ${what(c, before11)}: the whole table ${ctx.facts.table} is rewritten under ACCESS EXCLUSIVE${before11 ? ' (before PostgreSQL 11 any default does)' : ''}.`,
          'add the column without a default (or with a constant one), set the default afterwards, and backfill existing rows in batches.',
        ),
      );
    }
    return out ?? NO_FINDINGS;
  },
};
