import { quoteIdent } from '../../pg/quote';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import type { CloneState } from './sandbox-cache';
import type { SandboxSession } from './sandbox-session';
import type { CloneDdl } from './clone-ddl';
import { type SkippedCloneObject, skippedObject } from './clone-skips';
import { rowCounts } from './sandbox-validations';
import { insertSyntheticRows } from './synthetic-rows';

/** First line of an error's message (PostgreSQL adds DETAIL and HINT lines). */
export const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/**
 * Tables of the clone, `schema.name`. Tables that belong to an extension (PostGIS's
 * spatial_ref_sys, say) are the extension's business: they get no synthetic rows.
 */
const CREATED_TABLES = `SELECT n.nspname || '.' || c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r','p') AND n.nspname NOT IN ('pg_catalog','information_schema','pg_toast')
    AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')`;

/**
 * `SET search_path` to the snapshot's search path, or null without one (the default path then).
 * The snapshot's definitions (defaults, foreign keys, views, column types) were rendered under
 * that path, and the migration's unqualified names resolve in it, as on the user's database.
 */
export const searchPathSql = (path: readonly string[] | undefined): string | null =>
  path?.length ? `SET search_path TO ${path.map(quoteIdent).join(', ')}` : null;

/**
 * Clones the schema into the session's database (one call when everything is supported, object
 * by object otherwise, recording what was refused) and fills it with synthetic rows. `refused`:
 * objects of the clone that failed before, in a step of their own (the server sandbox's schemas
 * and extensions), reported with the others.
 */
export async function cloneAndFill(
  db: SandboxSession,
  snapshot: SchemaSnapshot,
  ddl: CloneDdl,
  rowsPerTable: number,
  refused: readonly SkippedCloneObject[] = [],
): Promise<CloneState> {
  const { steps } = ddl;
  // What the snapshot holds but no statement recreates (operators, foreign tables...) is named too.
  const skipped: CloneState['skipped'] = [
    ...ddl.skipped.filter((s) => snapshot.model || s.object !== 'schema').map((s) => skippedObject(snapshot, s, s.reason)),
    ...refused,
  ];
  const setPath = searchPathSql(snapshot.search_path);
  if (setPath) await db.exec(setPath);
  try {
    await db.exec(`BEGIN;\n${steps.map((s) => `${s.sql};`).join('\n')}\nCOMMIT;`);
  } catch {
    await db.exec('ROLLBACK').catch(() => undefined);
    for (const s of steps) {
      try {
        await db.exec(s.sql);
      } catch (e) {
        skipped.push(skippedObject(snapshot, s, firstLine(e)));
      }
    }
  }
  // The clone skips function-body checks (routines come in any order); a migration run on this
  // session must meet them, as on the target, or a broken function would pass the sandbox.
  await db.exec('RESET check_function_bodies');
  const created = (await db.query<{ t: string }>(CREATED_TABLES)).rows.map((r) => r.t);
  await db.exec('BEGIN');
  const rows = await insertSyntheticRows(db, snapshot, rowsPerTable, new Set(created));
  await db.exec('COMMIT');
  const countsBefore = [...(await rowCounts(db, created))];
  return { created, skipped, rows, countsBefore };
}
