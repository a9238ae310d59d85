import { nodeBody, nodeKind } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';

type Pair = { stmt: ParsedStatement; facts: StatementFacts };

/** The part of a rule's context these answers read (`RuleContext` has it). */
interface MigrationPlace {
  stmt: ParsedStatement;
  statements: readonly Pair[];
}

/**
 * What rules ask about the statements before the current one (was a table created, a setting
 * SET), asked of every statement: answered once per migration, as the first position at which
 * it became true, rather than by reading every earlier statement again for each one (quadratic
 * in the statements of a file, and a copy of them for each statement that asked).
 */
interface MigrationAnswers {
  /** Table -> position of the first statement that created it (CREATE TABLE, CREATE TABLE AS, CREATE VIEW). */
  created: Map<string, number> | undefined;
  /** Setting name, lower case -> position of its first SET. */
  settings: Map<string, number> | undefined;
  /** {@link firstPosition}'s answers by their key. */
  firsts: Map<string, number>;
}

const CREATES = new Set(['CreateStmt', 'CreateTableAsStmt', 'ViewStmt']);

// The rules of one migration run back to back: remembering the last migration's answers is
// enough (and an identity check costs less than a WeakMap lookup).
let answersFor: readonly Pair[] | undefined;
let answers: MigrationAnswers = { created: undefined, settings: undefined, firsts: new Map() };

function answersOf(ctx: MigrationPlace): MigrationAnswers {
  if (answersFor !== ctx.statements) {
    answersFor = ctx.statements;
    answers = { created: undefined, settings: undefined, firsts: new Map() };
  }
  return answers;
}

/** An earlier statement of this migration created `table` (CREATE TABLE, CREATE TABLE AS, CREATE VIEW). */
export function createdBefore(ctx: MigrationPlace, table: string): boolean {
  const a = answersOf(ctx);
  if (!a.created) {
    const created = new Map<string, number>();
    const all = ctx.statements;
    for (let i = 0; i < all.length; i++) {
      const t = all[i]!.facts.table;
      if (!created.has(t) && CREATES.has(nodeKind(all[i]!.stmt.stmt))) created.set(t, i);
    }
    a.created = created;
  }
  const at = a.created.get(table);
  return at !== undefined && at < ctx.stmt.index;
}

/** A `SET <name>` (lower case: lock_timeout, statement_timeout) appears before this statement. */
export function setBefore(ctx: MigrationPlace, name: string): boolean {
  const a = answersOf(ctx);
  if (!a.settings) {
    const settings = new Map<string, number>();
    const all = ctx.statements;
    for (let i = 0; i < all.length; i++) {
      const stmt = all[i]!.stmt.stmt;
      if (nodeKind(stmt) !== 'VariableSetStmt') continue;
      const set = String(nodeBody(stmt).name ?? '').toLowerCase();
      if (!settings.has(set)) settings.set(set, i);
    }
    a.settings = settings;
  }
  const at = a.settings.get(name);
  return at !== undefined && at < ctx.stmt.index;
}

/**
 * Position of the first statement of the migration that passes `test` (-1: none), kept under
 * `key`: the same key must always come with the same test.
 */
export function firstPosition(ctx: MigrationPlace, key: string, test: (pair: Pair) => boolean): number {
  const firsts = answersOf(ctx).firsts;
  let at = firsts.get(key);
  if (at === undefined) {
    const all = ctx.statements;
    at = -1;
    for (let i = 0; i < all.length; i++)
      if (test(all[i]!)) {
        at = i;
        break;
      }
    firsts.set(key, at);
  }
  return at;
}
