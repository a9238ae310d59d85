import { parseStatements } from '../parse-statements';
import {
  compareSchemas,
  type OwnedFingerprint,
  readOwnedFingerprint,
  readSchemaFingerprint,
  type SchemaDifference,
  type SchemaFingerprint,
} from '../schema-compare/schema-compare';
import { type CatalogCensus, CURRENT_XID_SQL, readCatalogCensus, touchedOwners, WORDING_SETTINGS_SQL } from '../schema-compare/catalog-census';
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
  /**
   * Objects and tables compared; `reread`: objects read again after the round trip (only those
   * of the owners it touched, with schemas, extensions and policies, when the catalog census
   * allowed it; else every one).
   */
  compared: { objects: number; tables: number; reread?: number };
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
 * The clone before the migration, as the proof compares against it: its fingerprint with each
 * key's owner, and (null when they could not be read: the proof then reads everything again) the
 * catalog census and the session's wording settings (`catalog-census.ts`).
 */
export interface ProofBaseline extends OwnedFingerprint {
  census: CatalogCensus | null;
  settings: string | null;
}

const wordingSettings = async (session: SandboxSession): Promise<string> =>
  (await session.query<{ settings: string }>(WORDING_SETTINGS_SQL)).rows[0]?.settings ?? '';

/**
 * The census in a transaction of its own without nested loops: a fresh clone's catalog statistics
 * can put one row where there are thousands, and a nested loop over `pg_depend` then took 2.4 s
 * instead of 30 ms (hatchet's schema).
 */
async function sessionCensus(session: SandboxSession, sinceXid: string | null, like?: CatalogCensus): Promise<CatalogCensus> {
  await session.exec('BEGIN READ ONLY; SET LOCAL enable_nestloop = off');
  try {
    const census = await readCatalogCensus((sql, params) => session.query(sql, params), sinceXid, like);
    await session.exec('COMMIT');
    return census;
  } catch (e) {
    await session.exec('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** Reads the baseline on a sandbox session; the census and settings are left out (null) when they cannot be read there. */
export async function readProofBaseline(session: SandboxSession): Promise<ProofBaseline> {
  const owned = await readOwnedFingerprint((sql, params) => session.query(sql, params));
  // One after the other: the census's transaction sets its own planner setting.
  const extra = await sessionCensus(session, null)
    .then(async (census) => [census, await wordingSettings(session)] as const)
    .catch(() => null);
  return { ...owned, census: extra?.[0] ?? null, settings: extra?.[1] ?? null };
}

/**
 * The reads of the proof's fast path after a round trip (the catalog census, the wording
 * settings), made on a new session before its run so that they fill the backend's caches the
 * run's proof then finds warm. The whole fingerprint is left out: once the clone's baseline is
 * known, the fast path reads only the touched owners' objects, and reading every object ahead
 * (about 60 ms of a spare's making on hatchet's 180 tables) left the run's reads no faster.
 */
export async function warmProofReads(session: SandboxSession): Promise<void> {
  await sessionCensus(session, null);
  await wordingSettings(session);
}

/** The xid from which the census counts a catalog row as written by the round trip (read just before the migration). */
export async function roundTripStart(session: SandboxSession): Promise<string | null> {
  return (await session.query<{ xid: string }>(CURRENT_XID_SQL).catch(() => ({ rows: [] as Array<{ xid: string }> }))).rows[0]?.xid ?? null;
}

/**
 * What differs from the baseline after the round trip. Only the objects whose catalog rows the
 * round trip wrote (and those always read whole) are read again when the census shows nothing
 * else changed; whenever that cannot be trusted, or any difference shows, everything is read
 * again, so the differences listed are always those of a full reading.
 */
async function differencesAfter(
  session: SandboxSession,
  before: ProofBaseline,
  sinceXid: string | null,
): Promise<{ differences: SchemaDifference[]; reread: number }> {
  const full = async () => ({ differences: compareSchemas(before.fingerprint, await sessionFingerprint(session)), reread: before.fingerprint.size });
  if (!before.census || before.settings === null || sinceXid === null) return full();
  try {
    const [census, settings] = [await sessionCensus(session, sinceXid, before.census), await wordingSettings(session)];
    if (settings !== before.settings) return full();
    const touched = touchedOwners(before.census, census);
    if ('refused' in touched) return full();
    const after = await readOwnedFingerprint((sql, params) => session.query(sql, params), [...touched.owners]);
    // A touched owner the fingerprint does not show (an extension's type or function) may change
    // how the objects that use it read.
    const shown = new Set([...before.owners.values(), ...after.owners.values()]);
    for (const owner of touched.owners) if (!shown.has(owner)) return full();
    const expected = new Map<string, string>();
    for (const [key, def] of before.fingerprint) {
      const owner = before.owners.get(key) ?? null;
      if (owner === null || touched.owners.has(owner)) expected.set(key, def);
    }
    if (compareSchemas(expected, after.fingerprint).length) return full();
    return { differences: [], reread: after.fingerprint.size };
  } catch {
    return full();
  }
}
/**
 * Runs the rollback script on the migrated clone in the transactions the executor would give it
 * (its BEGIN/COMMIT blocks, CONCURRENTLY steps alone, with CONCURRENTLY removed as for the
 * migration), then compares every object and every table's row count with the clone as it was
 * before the migration.
 */
export async function runRollbackRoundTrip(
  session: SandboxSession,
  rollback: SandboxRollback,
  before: ProofBaseline,
  countsBefore: ReadonlyMap<string, number>,
  serverVersionNum: number,
  /** From {@link roundTripStart}, read before the migration; null reads everything again. */
  sinceXid: string | null = null,
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
  const { differences, reread } = await differencesAfter(session, before, sinceXid);
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
  return { failure: null, differences, rowCounts: counts, compared: { objects: before.fingerprint.size, tables: countsBefore.size, reread } };
}
