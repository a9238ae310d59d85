import { deparse } from '../../../pg/deparse';
import { type AstNode, nodeKind } from '../../ast';
import { defaultObjectName, indexColumnNames } from '../names';
import type { RewriteRule } from './rewrite-context';
import { scanMs } from './rewrite-context';

/**
 * `CREATE INDEX` -> `CREATE INDEX CONCURRENTLY`, alone (PostgreSQL refuses it in a transaction
 * block): SHARE UPDATE EXCLUSIVE instead of SHARE, so writes go on during the build, which reads
 * the table twice and waits for older transactions. An unnamed index gets the name PostgreSQL
 * would give it. A build that fails leaves an INVALID index: the executor drops it
 * (`DROP INDEX CONCURRENTLY`) before a retry.
 */
export const createIndexConcurrently: RewriteRule = {
  name: 'create-index-concurrently',
  applies: (ctx) => nodeKind(ctx.stmt.stmt) === 'IndexStmt' && !ctx.stmt.stmt.IndexStmt.concurrent,
  rewrite(ctx) {
    const node = structuredClone(ctx.stmt.stmt) as AstNode;
    const b = node.IndexStmt as AstNode;
    if (ctx.table?.kind === 'partitioned_table')
      return 'CREATE INDEX CONCURRENTLY is not supported on a partitioned table (build it on each partition, then attach)';
    b.concurrent = true;
    if (!b.idxname) {
      const label = b.unique ? 'key' : 'idx';
      b.idxname = defaultObjectName(String(b.relation?.relname ?? ''), indexColumnNames(b.indexParams ?? []), label);
    }
    return {
      steps: [
        { sql: deparse(node), transactional: false, lock_type: 'SHARE UPDATE EXCLUSIVE', lock_duration_ms: Math.round(scanMs(ctx) * 2.5), batched: false },
      ],
      explanation: `statement ${ctx.stmt.index}: the index is built CONCURRENTLY (SHARE UPDATE EXCLUSIVE: writes continue during the build)`,
    };
  },
};
