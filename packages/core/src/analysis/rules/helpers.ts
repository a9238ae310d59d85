import type { AstNode } from '../ast';
import { nodeBody, nodeKind, typeNameText } from '../ast';
import type { StatementFacts } from '../statement-facts';
import type { RuleContext } from './rule';

// These helpers run for most statements, largely before the JIT has warmed up: plain indexed
// loops cost less there than map/filter chains (and compile smaller once optimised).

/** ALTER TABLE subcommands of a given subtype. */
export function subcommands(ctx: RuleContext, subtype: string): AstNode[] {
  const all = ctx.facts.subcommands;
  const out: AstNode[] = [];
  for (let i = 0; i < all.length; i++) if (all[i]!.subtype === subtype) out.push(all[i]!);
  return out;
}

/** Constraints added by ALTER TABLE ... ADD CONSTRAINT. */
export function addedConstraints(ctx: RuleContext): AstNode[] {
  const all = ctx.facts.subcommands;
  const out: AstNode[] = [];
  for (let i = 0; i < all.length; i++) {
    const con = all[i]!.subtype === 'AT_AddConstraint' ? (all[i]!.def?.Constraint as AstNode | undefined) : undefined;
    if (con) out.push(con);
  }
  return out;
}

/** Column definitions a statement introduces (CREATE TABLE columns and ADD COLUMN). */
export function columnDefs(ctx: RuleContext): AstNode[] {
  const out: AstNode[] = [];
  if (nodeKind(ctx.stmt.stmt) === 'CreateStmt') {
    const elts = (nodeBody(ctx.stmt.stmt).tableElts ?? []) as AstNode[];
    for (let i = 0; i < elts.length; i++) if (elts[i]!.ColumnDef) out.push(elts[i]!.ColumnDef as AstNode);
    return out;
  }
  const all = ctx.facts.subcommands;
  for (let i = 0; i < all.length; i++) {
    const col = all[i]!.subtype === 'AT_AddColumn' ? (all[i]!.def?.ColumnDef as AstNode | undefined) : undefined;
    if (col) out.push(col);
  }
  return out;
}

// Six type rules read the same list for every statement: build it once per statement.
const columnTypesOf = new WeakMap<StatementFacts, readonly { name: string; type: string }[]>();

/** Column types of new columns, lower case as written (`int4`, `varchar(255)`, `timestamp`). Shared: do not mutate. */
export function newColumnTypes(ctx: RuleContext): readonly { name: string; type: string }[] {
  let types = columnTypesOf.get(ctx.facts);
  if (!types) {
    const defs = columnDefs(ctx);
    const list: { name: string; type: string }[] = [];
    for (let i = 0; i < defs.length; i++) list.push({ name: String(defs[i]!.colname), type: typeNameText(defs[i]!.typeName).toLowerCase() });
    columnTypesOf.set(ctx.facts, (types = list));
  }
  return types;
}

export const columnConstraints = (col: AstNode): AstNode[] => ((col.constraints ?? []) as AstNode[]).map((c) => c.Constraint as AstNode);

/** Whether a SET of `name` (lock_timeout, statement_timeout) appears before this statement. */
export const settingBefore = (ctx: RuleContext, name: string): boolean =>
  ctx.previous.some(({ stmt }) => nodeKind(stmt.stmt) === 'VariableSetStmt' && String(nodeBody(stmt.stmt).name ?? '').toLowerCase() === name);
