import { nodeBody, nodeKind } from '../ast';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** A second BEGIN only warns and a stray COMMIT ends the tool's own transaction. */
export const transactionNesting: Rule = {
  name: 'transaction-nesting',
  severity: 'warning',
  doc: 'BEGIN inside a transaction or COMMIT/ROLLBACK without one.',
  kinds: ['TransactionStmt'],
  check(ctx) {
    if (nodeKind(ctx.stmt.stmt) !== 'TransactionStmt') return NO_FINDINGS;
    const k = String(nodeBody(ctx.stmt.stmt).kind);
    if ((k === 'TRANS_STMT_BEGIN' || k === 'TRANS_STMT_START') && ctx.inTransaction)
      return [
        finding(
          this.name,
          'BEGIN inside an open transaction has no effect (PostgreSQL has no nested transactions).',
          'use SAVEPOINT, or remove the inner BEGIN.',
        ),
      ];
    if ((k === 'TRANS_STMT_COMMIT' || k === 'TRANS_STMT_ROLLBACK') && !ctx.inTransaction)
      return [finding(this.name, `${k.replace('TRANS_STMT_', '')} without a matching BEGIN.`, 'remove it or add the BEGIN.')];
    return NO_FINDINGS;
  },
};
