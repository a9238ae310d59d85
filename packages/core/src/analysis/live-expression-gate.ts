import type { CatalogQueryable } from '../sql-execution/catalog-queryable';
import { parseSql } from '../sql-execution/parse-sql';
import { statementFindings } from '../sql-execution/statement-findings';
import { walk } from './ast';

/**
 * The fence between a migration's text and the user's live database. The preflight and the
 * lock-timing estimate evaluate (or let the planner fold) expressions the migration wrote: CHECK
 * and domain conditions, index expressions and predicates, EXCLUDE operators, USING casts,
 * partition bounds, DML predicates. A READ ONLY transaction stops none of what matters here:
 * reading a server file, writing through dblink to another session, signalling a backend. So
 * before anything is evaluated, its shape (a SELECT that calls exactly what the evaluation will
 * call) passes the strict agent guardrail, the same classification as an agent's `POST /execute`
 * at `strict`: only reads, built-in functions known to be free of side effects, operators and
 * casts resolved in the target's own catalog, user-defined functions judged by their bodies.
 *
 * Returns null when the shape may be evaluated, else why not, in dbops's words (never a server
 * error's text, which may quote data).
 */
export async function unverifiableReason(
  db: CatalogQueryable,
  shape: string,
  serverVersionNum?: number,
  /**
   * `subqueries`: the shape is a DML statement's own rows (its WHERE, an INSERT's query), where
   * PostgreSQL accepts sub-queries; the caller only plans a shape that holds one, never runs it.
   */
  options: { subqueries?: boolean } = {},
): Promise<string | null> {
  let statements;
  try {
    statements = await parseSql(shape);
  } catch {
    return 'the expression could not be read by dbops';
  }
  const [statement] = statements;
  if (statements.length !== 1 || statement?.type !== 'SelectStmt') return 'the expression could not be read by dbops';
  // PostgreSQL refuses sub-queries in constraints, index expressions, USING and bounds; the
  // preflight's SELECT would accept them and read other tables: the sandbox answers instead.
  let subquery = false;
  walk(statement.node, (n) => {
    if (n.SubLink) subquery = true;
  });
  if (subquery && !options.subqueries) return 'the expression holds a sub-query, which PostgreSQL does not accept there';
  let findings;
  try {
    findings = await statementFindings(db, statement, serverVersionNum);
  } catch {
    return "the functions the expression calls could not be looked up in the target's catalog";
  }
  const blocking = findings.find((f) => f.kind !== 'select' || f.opaque);
  if (!blocking) return null;
  if (blocking.opaque) return `the expression calls ${blocking.what}, whose effects dbops cannot read`;
  if (blocking.kind === 'other')
    return `the expression calls ${blocking.what}, which acts outside the transaction (files, other sessions or servers, signals, settings)`;
  return `the expression calls ${blocking.what}, which may change the database`;
}
