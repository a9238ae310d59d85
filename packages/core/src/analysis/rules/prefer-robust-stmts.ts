import { nodeBody, nodeKind } from '../ast';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** Outside a transaction a failed migration stops halfway; re-running needs idempotent statements. */
export const preferRobustStmts: Rule = {
  name: 'prefer-robust-stmts',
  severity: 'warning',
  doc: 'Outside a transaction, use IF NOT EXISTS / IF EXISTS so a half-applied migration can be re-run.',
  kinds: ['CreateStmt', 'IndexStmt', 'DropStmt'],
  check(ctx) {
    if (ctx.inTransaction) return NO_FINDINGS;
    const kind = nodeKind(ctx.stmt.stmt);
    const b = nodeBody(ctx.stmt.stmt);
    const missing =
      ((kind === 'CreateStmt' || kind === 'IndexStmt') && !b.if_not_exists && (kind !== 'IndexStmt' || b.concurrent)) ||
      (kind === 'DropStmt' && !b.missing_ok && b.concurrent);
    if (!missing) return NO_FINDINGS;
    return [
      finding(
        this.name,
        `${ctx.facts.statement_type} cannot be re-run if the migration fails after it.`,
        kind === 'DropStmt' ? 'DROP ... IF EXISTS.' : 'CREATE ... IF NOT EXISTS.',
      ),
    ];
  },
};
