import { deparse } from '../../../pg/deparse';
import { type AstNode, nodeKind } from '../../ast';
import { CATALOG_MS, type RewriteRule } from './rewrite-context';

/** `DROP INDEX` -> `DROP INDEX CONCURRENTLY`, alone: it waits for the index's users instead of blocking them. */
export const dropIndexConcurrently: RewriteRule = {
  name: 'drop-index-concurrently',
  applies: (ctx) => nodeKind(ctx.stmt.stmt) === 'DropStmt' && ctx.stmt.stmt.DropStmt.removeType === 'OBJECT_INDEX' && !ctx.stmt.stmt.DropStmt.concurrent,
  rewrite(ctx) {
    const node = structuredClone(ctx.stmt.stmt) as AstNode;
    const b = node.DropStmt as AstNode;
    if ((b.objects ?? []).length !== 1) return 'DROP INDEX CONCURRENTLY drops one index at a time: split the statement';
    if (b.behavior === 'DROP_CASCADE') return 'DROP INDEX CONCURRENTLY does not accept CASCADE';
    b.concurrent = true;
    return {
      steps: [{ sql: deparse(node), transactional: false, lock_type: 'SHARE UPDATE EXCLUSIVE', lock_duration_ms: CATALOG_MS, batched: false }],
      explanation: `statement ${ctx.stmt.index}: the index is dropped CONCURRENTLY (it waits for running queries instead of blocking new ones)`,
    };
  },
};
