import { nodeBody, nodeKind } from '../ast';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** A BEGIN never committed leaves the migration's work rolled back at disconnect. */
export const banUncommittedTransaction: Rule = {
  name: 'ban-uncommitted-transaction',
  severity: 'error',
  doc: 'A BEGIN without a COMMIT later in the migration.',
  kinds: ['TransactionStmt'],
  check(ctx) {
    if (nodeKind(ctx.stmt.stmt) !== 'TransactionStmt') return NO_FINDINGS;
    const k = String(nodeBody(ctx.stmt.stmt).kind);
    if (k !== 'TRANS_STMT_BEGIN' && k !== 'TRANS_STMT_START') return NO_FINDINGS;
    const closed = ctx.following.some(
      ({ stmt }) => nodeKind(stmt.stmt) === 'TransactionStmt' && /COMMIT|ROLLBACK|PREPARE/.test(String(nodeBody(stmt.stmt).kind)),
    );
    return closed
      ? NO_FINDINGS
      : [finding(this.name, 'BEGIN is never followed by COMMIT; the work is rolled back when the session ends.', 'add COMMIT at the end.')];
  },
};
