import type { AstNode } from '../ast';
import { nodeBody, nodeKind, typeNameText } from '../ast';
import type { RuleContext } from './rule';

/** ALTER TABLE subcommands of a given subtype. */
export const subcommands = (ctx: RuleContext, subtype: string): AstNode[] => ctx.facts.subcommands.filter((c) => c.subtype === subtype);

/** Constraints added by ALTER TABLE ... ADD CONSTRAINT. */
export const addedConstraints = (ctx: RuleContext): AstNode[] => subcommands(ctx, 'AT_AddConstraint').map((c) => c.def?.Constraint as AstNode).filter(Boolean);

/** Column definitions a statement introduces (CREATE TABLE columns and ADD COLUMN). */
export function columnDefs(ctx: RuleContext): AstNode[] {
  const kind = nodeKind(ctx.stmt.stmt);
  const b = nodeBody(ctx.stmt.stmt);
  if (kind === 'CreateStmt') return ((b.tableElts ?? []) as AstNode[]).map((e) => e.ColumnDef as AstNode).filter(Boolean);
  return subcommands(ctx, 'AT_AddColumn').map((c) => c.def?.ColumnDef as AstNode).filter(Boolean);
}

/** Column types of new columns, lower case as written (`int4`, `varchar(255)`, `timestamp`). */
export const newColumnTypes = (ctx: RuleContext): { name: string; type: string }[] =>
  columnDefs(ctx).map((c) => ({ name: String(c.colname), type: typeNameText(c.typeName).toLowerCase() }));

export const columnConstraints = (col: AstNode): AstNode[] => ((col.constraints ?? []) as AstNode[]).map((c) => c.Constraint as AstNode);

/** Whether a SET of `name` (lock_timeout, statement_timeout) appears before this statement. */
export const settingBefore = (ctx: RuleContext, name: string): boolean =>
  ctx.previous.some(({ stmt }) => nodeKind(stmt.stmt) === 'VariableSetStmt' && String(nodeBody(stmt.stmt).name ?? '').toLowerCase() === name);
