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

/** For each key `keyOf` gives a statement of the migration (null: none), the position of the first statement giving it. */
function firstPositions(all: readonly Pair[], keyOf: (pair: Pair) => string | null): Map<string, number> {
  const at = new Map<string, number>();
  for (let i = 0; i < all.length; i++) {
    const key = keyOf(all[i]!);
    if (key !== null && !at.has(key)) at.set(key, i);
  }
  return at;
}

const createdTable = (pair: Pair): string | null => (CREATES.has(nodeKind(pair.stmt.stmt)) ? pair.facts.table : null);

const setName = (pair: Pair): string | null =>
  nodeKind(pair.stmt.stmt) === 'VariableSetStmt' ? String(nodeBody(pair.stmt.stmt).name ?? '').toLowerCase() : null;

/** An earlier statement of this migration created `table` (CREATE TABLE, CREATE TABLE AS, CREATE VIEW). */
export function createdBefore(ctx: MigrationPlace, table: string): boolean {
  const a = answersOf(ctx);
  const at = (a.created ??= firstPositions(ctx.statements, createdTable)).get(table);
  return at !== undefined && at < ctx.stmt.index;
}

/** A `SET <name>` (lower case: lock_timeout, statement_timeout) appears before this statement. */
export function setBefore(ctx: MigrationPlace, name: string): boolean {
  const a = answersOf(ctx);
  const at = (a.settings ??= firstPositions(ctx.statements, setName)).get(name);
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
