import { quoteIdent, quoteQualified } from '../../../pg/quote';
import { type AstNode, names, nodeKind } from '../../ast';
import { defaultObjectName } from '../names';
import type { DraftStep } from '../types';
import { notNullSteps } from './not-null-via-check';
import { CATALOG_MS, onlySubcommand, type RewriteContext, type RewriteRule, scanMs } from './rewrite-context';

const keyConstraint = (ctx: RewriteContext): AstNode | null => {
  if (nodeKind(ctx.stmt.stmt) !== 'AlterTableStmt') return null;
  const cmd = onlySubcommand(ctx);
  const con = cmd?.subtype === 'AT_AddConstraint' ? (cmd.def?.Constraint as AstNode | undefined) : undefined;
  return con && (con.contype === 'CONSTR_UNIQUE' || con.contype === 'CONSTR_PRIMARY') && !con.indexname ? con : null;
};

/**
 * `ADD UNIQUE` / `ADD PRIMARY KEY` -> `CREATE UNIQUE INDEX CONCURRENTLY`, then `ADD CONSTRAINT
 * ... USING INDEX` (a catalog change). A primary key's nullable columns are first made NOT NULL
 * through the helper CHECK pattern, since USING INDEX would otherwise scan under ACCESS EXCLUSIVE.
 */
export const uniqueUsingIndex: RewriteRule = {
  name: 'unique-using-index',
  applies: (ctx) => keyConstraint(ctx) !== null,
  rewrite(ctx) {
    const con = keyConstraint(ctx)!;
    if (con.including?.length || con.options?.length || con.indexspace || con.deferrable)
      return 'a key with INCLUDE, storage options, a tablespace or DEFERRABLE is not rewritten';
    if (ctx.table?.kind === 'partitioned_table') return 'CREATE INDEX CONCURRENTLY is not supported on a partitioned table';
    const primary = con.contype === 'CONSTR_PRIMARY';
    const keys = names(con.keys);
    const relname = ctx.facts.table.slice(ctx.facts.table.lastIndexOf('.') + 1);
    const name = con.conname ? String(con.conname) : primary ? defaultObjectName(relname, [], 'pkey') : defaultObjectName(relname, keys, 'key');
    const t = quoteQualified(ctx.facts.table);
    const steps: DraftStep[] = [
      {
        sql: `CREATE UNIQUE INDEX CONCURRENTLY ${quoteIdent(name)} ON ${t} (${keys.map(quoteIdent).join(', ')})${con.nulls_not_distinct ? ' NULLS NOT DISTINCT' : ''}`,
        transactional: false,
        lock_type: 'SHARE UPDATE EXCLUSIVE',
        lock_duration_ms: Math.round(scanMs(ctx) * 2.5),
        batched: false,
      },
    ];
    if (primary) {
      const nullable = keys.filter((k) => ctx.table?.columns.find((c) => c.name === k)?.nullable !== false);
      for (const k of nullable) steps.push(...notNullSteps(ctx.facts.table, k, scanMs(ctx)));
    }
    steps.push({
      sql: `ALTER TABLE ${t} ADD CONSTRAINT ${quoteIdent(name)} ${primary ? 'PRIMARY KEY' : 'UNIQUE'} USING INDEX ${quoteIdent(name)}`,
      transactional: true,
      lock_type: 'ACCESS EXCLUSIVE',
      lock_duration_ms: CATALOG_MS,
      batched: false,
    });
    return {
      steps,
      explanation: `statement ${ctx.stmt.index}: the unique index is built CONCURRENTLY, then attached as the ${primary ? 'primary key' : 'unique constraint'} (USING INDEX: a catalog change)`,
    };
  },
};
