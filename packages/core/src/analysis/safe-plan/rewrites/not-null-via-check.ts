import { quoteIdent, quoteQualified } from '../../../pg/quote';
import { nodeKind } from '../../ast';
import type { DraftStep } from '../types';
import { defaultObjectName } from '../names';
import { CATALOG_MS, onlySubcommand, type RewriteRule } from './rewrite-context';

/**
 * The steps that make `column` NOT NULL without a scan under ACCESS EXCLUSIVE: a helper
 * `CHECK (column IS NOT NULL) NOT VALID`, validated in its own transaction (SHARE UPDATE
 * EXCLUSIVE), then `SET NOT NULL`, which PostgreSQL 12+ proves from the validated check without
 * scanning, and the helper dropped in the same short transaction.
 */
export function notNullSteps(table: string, column: string, scanMs: number): DraftStep[] {
  const relname = table.slice(table.lastIndexOf('.') + 1);
  const helper = quoteIdent(defaultObjectName(`dbops_${relname}`, [column], 'not_null'));
  const t = quoteQualified(table);
  const c = quoteIdent(column);
  return [
    {
      sql: `ALTER TABLE ${t} ADD CONSTRAINT ${helper} CHECK (${c} IS NOT NULL) NOT VALID`,
      transactional: true,
      lock_type: 'ACCESS EXCLUSIVE',
      lock_duration_ms: CATALOG_MS,
      batched: false,
    },
    {
      sql: `ALTER TABLE ${t} VALIDATE CONSTRAINT ${helper}`,
      transactional: true,
      lock_type: 'SHARE UPDATE EXCLUSIVE',
      lock_duration_ms: scanMs,
      batched: false,
    },
    {
      sql: `ALTER TABLE ${t} ALTER COLUMN ${c} SET NOT NULL;\nALTER TABLE ${t} DROP CONSTRAINT ${helper}`,
      transactional: true,
      lock_type: 'ACCESS EXCLUSIVE',
      lock_duration_ms: CATALOG_MS,
      batched: false,
    },
  ];
}

/** `ALTER COLUMN ... SET NOT NULL` -> the helper CHECK pattern of {@link notNullSteps}. */
export const notNullViaCheck: RewriteRule = {
  name: 'not-null-via-check',
  applies: (ctx) => nodeKind(ctx.stmt.stmt) === 'AlterTableStmt' && onlySubcommand(ctx)?.subtype === 'AT_SetNotNull',
  rewrite(ctx) {
    const column = String(onlySubcommand(ctx)!.name);
    return {
      steps: notNullSteps(ctx.facts.table, column, Math.max(1, ctx.report.lock_duration_ms)),
      explanation: `statement ${ctx.stmt.index}: NOT NULL is proved by a helper CHECK validated without blocking writes, then set without a scan, and the helper dropped`,
    };
  },
};
