import { parseStatements } from '../parse-statements';
import { compareSchemas, readSchemaFingerprint, type SchemaDifference, type SchemaFingerprint } from '../schema-compare/schema-compare';
import { firstLine } from './clone-and-fill';
import type { SandboxSession } from './sandbox-session';
import { rowCounts } from './sandbox-validations';
import { planStatements, segmentPlan } from '../../migration-execution/migration-plan';

/** What the sandbox is asked to prove: the report's rollback script, run on the migrated clone. */
export interface SandboxRollback {
  /** `rollback_plan.combined_script`: each step after its `-- undo statement <i>` comment. */
  script: string;
}

/**
 * What running the rollback on the migrated clone showed, compared with the clone before the
 * migration. Plain data (it crosses from a sandbox thread); the rollback plan draws its verdict
 * from it (rollback/rollback-verdict.ts).
 */
export interface RollbackProof {
  /** The script failed: the undo of which statement (null when the comment naming it was not found), and PostgreSQL's message. */
  failure: { statement_index: number | null; message: string } | null;
  /** Objects that differ from the clone before the migration (empty when the script failed: its state is half undone). */
  differences: SchemaDifference[];
  /**
   * Tables whose row count differs from the clone before the migration, each with the tables it
   * is a partition (or child) of, up the tree: a write to a parent lands in its partitions.
   */
  rowCounts: Array<{ table: string; before: number; after: number | null; via?: string[] }>;
  /** Objects and tables compared. */
  compared: { objects: number; tables: number };
}

const UNDO_OF = /-- undo statement (\d+)/g;

/** The statement a rollback statement undoes: the last `-- undo statement <i>` comment at or before it. */
function undoIndexes(statements: readonly { sql: string }[]): Array<number | null> {
  let current: number | null = null;
  return statements.map((s) => {
    for (const m of s.sql.matchAll(UNDO_OF)) current = Number(m[1]);
    return current;
  });
}

/** The tables each of `tables` is a partition or child of, nearest first (pg_inherits, up the tree). */
async function ancestorsOf(session: SandboxSession, tables: readonly string[]): Promise<Map<string, string[]>> {
  const { rows } = await session.query<{ t: string; a: string }>(
    `WITH RECURSIVE up AS (
       SELECT n.nspname || '.' || c.relname AS t, c.oid, 0 AS depth FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname || '.' || c.relname = ANY($1)
       UNION ALL
       SELECT up.t, i.inhparent, up.depth + 1 FROM pg_inherits i JOIN up ON i.inhrelid = up.oid WHERE up.depth < 32)
     SELECT up.t, n.nspname || '.' || c.relname AS a FROM up JOIN pg_class c ON c.oid = up.oid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE up.depth > 0 ORDER BY up.t, up.depth`,
    [[...tables]],
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.t, [...(out.get(r.t) ?? []), r.a]);
  return out;
}

/** Reads the schema fingerprint on a sandbox session (the catalog query of schema-compare). */
export const sessionFingerprint = (session: SandboxSession): Promise<SchemaFingerprint> =>
  readSchemaFingerprint((sql) => session.query<{ kind: string; name: string; def: string }>(sql));

/**
 * Runs the rollback script on the migrated clone in the transactions the executor would give it
 * (its BEGIN/COMMIT blocks, CONCURRENTLY steps alone, with CONCURRENTLY removed as for the
 * migration), then compares every object and every table's row count with the clone as it was
 * before the migration.
 */
export async function runRollbackRoundTrip(
  session: SandboxSession,
  rollback: SandboxRollback,
  before: SchemaFingerprint,
  countsBefore: ReadonlyMap<string, number>,
  serverVersionNum: number,
): Promise<RollbackProof> {
  const parsed = await parseStatements(rollback.script);
  const undoes = undoIndexes(parsed);
  for (const segment of segmentPlan(planStatements(parsed, serverVersionNum))) {
    let open = false;
    for (const s of segment.statements) {
      try {
        if (segment.transactional && !open) {
          await session.exec('BEGIN');
          open = true;
        }
        await session.exec(segment.transactional ? s.sql : s.sql.replace(/\bCONCURRENTLY\b/i, ''));
      } catch (e) {
        if (open) await session.exec('ROLLBACK').catch(() => undefined);
        return {
          failure: { statement_index: undoes[s.index] ?? null, message: firstLine(e) },
          differences: [],
          rowCounts: [],
          compared: { objects: 0, tables: 0 },
        };
      }
    }
    if (open) {
      try {
        await session.exec('COMMIT');
      } catch (e) {
        await session.exec('ROLLBACK').catch(() => undefined);
        const last = segment.statements.at(-1)!;
        return {
          failure: { statement_index: undoes[last.index] ?? null, message: firstLine(e) },
          differences: [],
          rowCounts: [],
          compared: { objects: 0, tables: 0 },
        };
      }
    }
  }
  const differences = compareSchemas(before, await sessionFingerprint(session));
  const after = await rowCounts(session, [...countsBefore.keys()]);
  const counts: RollbackProof['rowCounts'] = [];
  for (const [table, n] of countsBefore) if (after.get(table) !== n) counts.push({ table, before: n, after: after.get(table) ?? null });
  if (counts.length) {
    const up = await ancestorsOf(
      session,
      counts.map((c) => c.table),
    );
    for (const c of counts) if (up.get(c.table)?.length) c.via = up.get(c.table);
  }
  return { failure: null, differences, rowCounts: counts, compared: { objects: before.size, tables: countsBefore.size } };
}
