import { ensureParser } from '@dbops/core/pg';
import { statementCountOver, tooManyStatementsIssue } from '@dbops/core/pg';
import type { z } from 'zod';

/**
 * A zod refinement refusing SQL over `max` statements at validation, so such a request is
 * answered 422 before it is charged or reaches a database. Loads the parser (the exact count
 * needs it); until it is loaded the domain's own check after parsing is what refuses.
 */
export function withinStatementLimit(max: number): (sql: string, ctx: z.RefinementCtx) => void {
  ensureParser().catch(() => undefined);
  return (sql, ctx) => {
    const count = statementCountOver(sql, max);
    if (count === null || count <= max) return;
    const issue = tooManyStatementsIssue([], count, max);
    ctx.addIssue({ code: 'custom', message: issue.msg, params: { type: issue.type, ctx: issue.ctx, echo: false } });
  };
}
