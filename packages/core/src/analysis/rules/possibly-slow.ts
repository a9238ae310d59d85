import { nodeBody, nodeKind } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import { settingBefore } from './helpers';
import { firstPosition } from './migration-answers';
import type { RuleContext } from './rule';

// Statement kinds that change or lock schema objects, beyond the Alter*/Create*/Drop*/Define* families.
const DDL = new Set([
  'IndexStmt',
  'ViewStmt',
  'RenameStmt',
  'CommentStmt',
  'ClusterStmt',
  'LockStmt',
  'RefreshMatViewStmt',
  'ReindexStmt',
  'TruncateStmt',
  'RuleStmt',
  'CompositeTypeStmt',
  'LoadStmt',
  'ImportForeignSchemaStmt',
  'CreateTrigStmt',
  'DefineStmt',
]);

// Two rules ask this of every statement and of each one before it: the answer per kind is kept
// (a few dozen kinds) rather than matched again.
const slowKinds = new Map<string, boolean>();

const hasForeignKey = (stmt: ParsedStatement): boolean =>
  (
    (nodeBody(stmt.stmt).tableElts ?? []) as { Constraint?: { contype?: string }; ColumnDef?: { constraints?: { Constraint?: { contype?: string } }[] } }[]
  ).some((e) => e.Constraint?.contype === 'CONSTR_FOREIGN' || (e.ColumnDef?.constraints ?? []).some((c) => c.Constraint?.contype === 'CONSTR_FOREIGN'));

/**
 * Offline, without table sizes: any DDL may wait for a lock behind running queries, and every
 * query queues behind it while it waits (squawk's model). A CREATE TABLE is quick unless a
 * foreign key locks the table it references.
 */
export function possiblySlow(stmt: ParsedStatement): boolean {
  const kind = nodeKind(stmt.stmt);
  if (kind === 'CreateStmt') return hasForeignKey(stmt);
  if (kind === 'VacuumStmt') return !!nodeBody(stmt.stmt).is_vacuumcmd;
  let slow = slowKinds.get(kind);
  if (slow === undefined) slowKinds.set(kind, (slow = DDL.has(kind) || /^(Alter|Create|Drop|Define)/.test(kind)));
  return slow;
}

/**
 * Offline form of the timeout rules: like squawk, report once per file, at the first
 * possibly slow statement with no `SET <setting>` before it.
 */
export function firstUnguardedSlow(ctx: RuleContext, setting: string): boolean {
  if (!possiblySlow(ctx.stmt)) return false;
  const first = firstPosition(ctx, 'possibly-slow', slowPair);
  if (first >= 0 && first < ctx.stmt.index) return false;
  return !settingBefore(ctx, setting);
}

const slowPair = (pair: RuleContext['statements'][number]): boolean => possiblySlow(pair.stmt);
