import type { AstNode } from '../ast';
import { nodeBody, nodeKind, typeNameText } from '../ast';
import type { StatementFacts } from '../statement-facts';
import { setBefore } from './migration-answers';
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

// Six type rules read the same list for every statement: build it once per statement. The rules
// of one statement run back to back, so remembering the last statement's list is enough (and an
// identity check costs less than a WeakMap lookup).
let typesFacts: StatementFacts | undefined;
const NO_TYPES: readonly { name: string; type: string }[] = [];
let typesList = NO_TYPES;

/** Column types of new columns, lower case as written (`int4`, `varchar(255)`, `timestamp`). Shared: do not mutate. */
export function newColumnTypes(ctx: RuleContext): readonly { name: string; type: string }[] {
  if (typesFacts === ctx.facts) return typesList;
  let list = NO_TYPES;
  // Most ALTER TABLEs add no column: no list built for them.
  if (nodeKind(ctx.stmt.stmt) === 'CreateStmt' || hasSubcommand(ctx, 'AT_AddColumn')) {
    const defs = columnDefs(ctx);
    const built: { name: string; type: string }[] = [];
    for (let i = 0; i < defs.length; i++) built.push({ name: String(defs[i]!.colname), type: typeNameText(defs[i]!.typeName).toLowerCase() });
    list = built;
  }
  typesFacts = ctx.facts;
  return (typesList = list);
}

/** The constraints of a column definition. */
export function columnConstraints(col: AstNode): AstNode[] {
  const list = col.constraints as AstNode[] | undefined;
  const out: AstNode[] = [];
  if (list) for (let i = 0; i < list.length; i++) out.push(list[i]!.Constraint as AstNode);
  return out;
}

/** Whether a column definition has a constraint of one of the given types (no array built). */
export function hasConstraint(col: AstNode, a: string, b?: string, c?: string): boolean {
  const list = col.constraints as AstNode[] | undefined;
  if (list)
    for (let i = 0; i < list.length; i++) {
      const t = (list[i]!.Constraint as AstNode | undefined)?.contype;
      if (t === a || (b !== undefined && t === b) || (c !== undefined && t === c)) return true;
    }
  return false;
}

/** Whether the statement's ALTER TABLE has a subcommand of this subtype. */
export function hasSubcommand(ctx: RuleContext, subtype: string): boolean {
  const all = ctx.facts.subcommands;
  for (let i = 0; i < all.length; i++) if (all[i]!.subtype === subtype) return true;
  return false;
}

/** Whether a SET of `name` (lock_timeout, statement_timeout) appears before this statement. */
export const settingBefore = (ctx: RuleContext, name: string): boolean => setBefore(ctx, name);
