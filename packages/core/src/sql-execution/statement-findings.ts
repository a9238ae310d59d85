import { catalogFindings } from './catalog-check';
import type { CatalogQueryable } from './catalog-queryable';
import { classifyStatement } from './classify-statement';
import type { Finding } from './guardrail';
import type { ParsedStatement } from './parse-sql';

/**
 * Every finding for one parsed statement: its parse tree and what it reaches in the catalog,
 * asked in a transaction of its own that is always rolled back (the probe function it creates
 * goes with it). For callers that check a statement without running it on the same session
 * (POST /queries/optimize); /execute checks inside its own transaction.
 */
export async function statementFindings(db: CatalogQueryable, statement: ParsedStatement, serverVersionNum?: number): Promise<Finding[]> {
  const c = classifyStatement(statement);
  await db.query('BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE');
  try {
    return [...c.findings, ...(await catalogFindings(db, statement, c, serverVersionNum))];
  } finally {
    await db.query('ROLLBACK').catch(() => undefined);
  }
}
