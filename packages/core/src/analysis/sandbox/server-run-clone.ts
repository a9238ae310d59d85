import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { cloneAndFill, firstLine, searchPathSql } from './clone-and-fill';
import type { CloneDdl } from './clone-ddl';
import { type SkippedCloneObject, skippedObject } from './clone-skips';
import { fenceOutwardExtensions } from './outward-extensions';
import type { CloneState } from './sandbox-cache';
import type { SandboxSession } from './sandbox-session';

/**
 * Clones the snapshot into a run's database on a sandbox server **as the run's role**, logged in
 * as itself (`run`), so every object it creates is its own and no ownership has to change.
 *
 * Why not build as the configured role and hand the objects over: `REASSIGN OWNED BY` that role
 * would also hand over the shared objects it owns (every other run's database), and listing the
 * objects of one database to `ALTER ... OWNER` one kind at a time misses kinds. Why not build
 * under `SET ROLE` on the configured role's session: the synthetic rows fire the schema's
 * triggers, defaults and checks, user code that could `RESET ROLE` back to the configured role.
 * A separate login runs that code with the run role's rights only (PostgreSQL 13-17 alike).
 *
 * What needs more than a database owner happens first, before any code of the schema runs, on
 * `admin` (the configured role's session on the run's database): schemas and extensions come
 * first in the clone's order (they depend on nothing else); each is made by the run role, and an
 * extension it may not create (not `trusted`: dblink, postgres_fdw, PostGIS...) by the configured
 * role when that is a superuser. Then the outward extensions are fenced (their functions kept
 * from the run role, user mappings dropped, foreign servers unusable), and the rest of the clone
 * and its rows follow on `run`.
 */
export async function cloneAsRunRole(
  run: SandboxSession,
  admin: SandboxSession,
  snapshot: SchemaSnapshot,
  ddl: CloneDdl,
  rowsPerTable: number,
  adminIsSuperuser: boolean,
): Promise<CloneState> {
  const first = ddl.steps.filter((s) => s.kind === 'schema' || s.kind === 'extension');
  const rest = ddl.steps.filter((s) => s.kind !== 'schema' && s.kind !== 'extension');
  const refused: SkippedCloneObject[] = [];
  const setPath = searchPathSql(snapshot.search_path);
  if (setPath) await Promise.all([run.exec(setPath), admin.exec(setPath)]);
  for (const step of first) {
    try {
      await run.exec(step.sql);
    } catch (e) {
      let error = firstLine(e);
      if (step.kind === 'extension' && adminIsSuperuser) {
        try {
          await admin.exec(step.sql);
          continue;
        } catch (e2) {
          error = firstLine(e2);
        }
      }
      refused.push(skippedObject(snapshot, step, error));
    }
  }
  // Only the catalog's own names from here on, whatever the clone later puts in its schemas.
  await admin.exec('SET search_path TO pg_catalog, pg_temp');
  await admin.exec(fenceOutwardExtensions('CURRENT_USER'));
  return cloneAndFill(run, snapshot, { steps: rest, skipped: ddl.skipped }, rowsPerTable, refused);
}
