import { ensureParser, parseTreeSync, statementsOf } from '../pg/parser';
import { AppError } from '../errors/app-error';
import { type BatchAnnotation, readBatchAnnotation } from './batched-annotation';
import { type CatalogEffect, effectsOf } from './catalog-effects';

/**
 * How a statement runs: inside the migration's transaction, on its own outside any
 * transaction (PostgreSQL refuses it in a transaction block), or not at all (the script's own
 * BEGIN/COMMIT, since the executor manages the transaction).
 */
export type StatementMode = 'transactional' | 'non_transactional' | 'skipped';

export interface PlannedStatement {
  /** 0-based position in the submitted script (the analysis report uses the same numbering). */
  index: number;
  sql: string;
  /** Parse-tree node name, e.g. "AlterTableStmt". */
  nodeType: string;
  mode: StatementMode;
  /** Why a statement is non-transactional or skipped. */
  reason: string | null;
  /** Name of the index a CREATE INDEX CONCURRENTLY builds, for INVALID-index reporting. */
  concurrentIndexName: string | null;
  /** What the statement leaves in the catalog, when one look-up proves it (catalog-effects.ts); null otherwise. */
  effects: CatalogEffect[] | null;
  /**
   * The `-- dbops:batched` annotation before a transactional statement (`batched-annotation.ts`):
   * the executor runs it in key-range batches, each its own transaction; `{error}` when the
   * annotation cannot be read (the executor then refuses the step). Null for every other statement.
   */
  batched: BatchAnnotation | { error: string } | null;
}

/** Statements run together: one transaction, or one non-transactional statement. */
export interface PlanSegment {
  transactional: boolean;
  statements: PlannedStatement[];
}

type Node = Record<string, unknown>;

export { ensureParser };

const has = (params: unknown, name: string): boolean =>
  Array.isArray(params) && params.some((p) => ((p as Node).DefElem as Node | undefined)?.defname === name);

/**
 * Classifies one parsed statement. Only statements PostgreSQL rejects inside a transaction
 * block are non-transactional; everything else runs in the transaction so it rolls back.
 */
export function classify(nodeType: string, node: Node, serverVersionNum: number): { mode: StatementMode; reason: string | null } {
  const non = (reason: string) => ({ mode: 'non_transactional' as const, reason });
  switch (nodeType) {
    case 'TransactionStmt': {
      const kind = String(node.kind);
      if (['TRANS_STMT_BEGIN', 'TRANS_STMT_START', 'TRANS_STMT_COMMIT'].includes(kind)) {
        return { mode: 'skipped', reason: 'transaction control is managed by the executor' };
      }
      break;
    }
    case 'IndexStmt':
      if (node.concurrent === true) return non('CREATE INDEX CONCURRENTLY cannot run inside a transaction block');
      break;
    case 'DropStmt':
      if (node.concurrent === true) return non('DROP INDEX CONCURRENTLY cannot run inside a transaction block');
      break;
    case 'ReindexStmt':
      if (has(node.params, 'concurrently')) return non('REINDEX CONCURRENTLY cannot run inside a transaction block');
      if (node.kind === 'REINDEX_OBJECT_SYSTEM' || node.kind === 'REINDEX_OBJECT_DATABASE')
        return non('REINDEX DATABASE/SYSTEM cannot run inside a transaction block');
      break;
    case 'VacuumStmt':
      if (node.is_vacuumcmd === true) return non('VACUUM cannot run inside a transaction block');
      break;
    case 'ClusterStmt':
      if (node.relation === undefined) return non('CLUSTER without a table cannot run inside a transaction block');
      break;
    case 'CreatedbStmt':
    case 'DropdbStmt':
    case 'CreateTableSpaceStmt':
    case 'DropTableSpaceStmt':
    case 'AlterSystemStmt':
    case 'CreateSubscriptionStmt':
    case 'DropSubscriptionStmt':
      return non(`${nodeType.replace(/Stmt$/, '')} cannot run inside a transaction block`);
    case 'AlterEnumStmt':
      // Allowed in a transaction block since PostgreSQL 12.
      if (node.newVal !== undefined && node.oldVal === undefined && serverVersionNum < 120000) {
        return non('ALTER TYPE ... ADD VALUE cannot run inside a transaction block before PostgreSQL 12');
      }
      break;
    case 'AlterTableStmt': {
      const cmds = Array.isArray(node.cmds) ? (node.cmds as Node[]) : [];
      const detach = cmds.some((c) => {
        const cmd = c.AlterTableCmd as Node | undefined;
        return cmd?.subtype === 'AT_DetachPartition' && ((cmd.def as Node | undefined)?.PartitionCmd as Node | undefined)?.concurrent === true;
      });
      if (detach) return non('DETACH PARTITION CONCURRENTLY cannot run inside a transaction block');
      break;
    }
    default:
      break;
  }
  return { mode: 'transactional', reason: null };
}

/**
 * Splits a migration on the parser's statement locations (byte offsets into the UTF-8 text)
 * and classifies each statement. The SQL was already parsed and sandbox-tested at analysis,
 * so a parse failure here is unexpected; it is still a clean SQL_PARSE_ERROR.
 */
export async function planMigration(sql: string, serverVersionNum: number): Promise<PlannedStatement[]> {
  await ensureParser();
  let tree: ReturnType<typeof parseTreeSync>;
  try {
    tree = parseTreeSync(sql);
  } catch (error) {
    throw new AppError('SQL_PARSE_ERROR', `The migration could not be parsed: ${(error as Error).message}`);
  }
  return planStatements(statementsOf(sql, tree), serverVersionNum);
}

/** A statement already cut and parsed: its position, text and wrapped node (`{AlterTableStmt: {...}}`). */
export interface StatementToPlan {
  index: number;
  sql: string;
  stmt: Record<string, unknown>;
}

/**
 * Classifies statements someone already parsed: the executor's {@link planMigration} and the
 * analysis sandbox both plan through here, so the sandbox runs a migration in the very
 * transactions the executor will.
 */
export function planStatements(statements: readonly StatementToPlan[], serverVersionNum: number): PlannedStatement[] {
  return statements.map(({ index, sql: text, stmt }) => {
    let nodeType = '';
    for (const k in stmt) {
      nodeType = k;
      break;
    }
    const raw = stmt[nodeType] as Node;
    const { mode, reason } = classify(nodeType, raw, serverVersionNum);
    const concurrentIndexName = nodeType === 'IndexStmt' && raw.concurrent === true && typeof raw.idxname === 'string' ? raw.idxname : null;
    const batched = mode === 'transactional' ? readBatchAnnotation(text) : null;
    return { index, sql: text, nodeType, mode, reason, concurrentIndexName, effects: effectsOf(nodeType, raw), batched };
  });
}

/**
 * Groups statements in script order: consecutive transactional statements share one
 * transaction; each non-transactional statement is a segment of its own; the script's own
 * BEGIN or COMMIT ends a transaction (what follows starts the next one), as it does when the
 * script is run by hand: `ALTER TYPE ... ADD VALUE` needs a COMMIT before the new value can be
 * used. A script without non-transactional statements, BEGIN or COMMIT is therefore exactly
 * one transaction. A batched statement (`-- dbops:batched`) is a segment of its own: the
 * executor runs it as a series of transactions, and whatever runs the plan plainly (the
 * sandbox) runs it as one transaction at the same place.
 */
export function segmentPlan(plan: readonly PlannedStatement[]): PlanSegment[] {
  const segments: PlanSegment[] = [];
  // The script's own BEGIN/COMMIT (the only skipped statements) close the transaction before them.
  let boundary = false;
  for (const statement of plan) {
    if (statement.mode === 'skipped') {
      boundary = true;
      continue;
    }
    const last = segments.at(-1);
    const alone = statement.batched !== null || (last?.statements.length === 1 && last.statements[0]!.batched !== null);
    if (statement.mode === 'transactional' && last?.transactional && !boundary && !alone) last.statements.push(statement);
    else segments.push({ transactional: statement.mode === 'transactional', statements: [statement] });
    boundary = false;
  }
  return segments;
}

/** Short progress text of a statement: its first line, whitespace collapsed, at most 80 characters. */
export function statementSummary(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
