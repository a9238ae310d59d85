import type { CatalogWrite } from '../catalog-write';
import type { SandboxSession } from '../sandbox-session';

export interface CatalogReplayContext {
  /** The run's session, as the sandbox role (no superuser), under the migration's search path. */
  sandbox: SandboxSession;
  /** A session on the run's database as the clone builder (a superuser); opened on first need. */
  superuser: () => Promise<SandboxSession>;
  /** Whether the target's role is a superuser (`role_superuser` of the snapshot). */
  targetSuperuser: boolean;
  /** Whether the migration has an open BEGIN at this statement. */
  inTransaction: boolean;
}

const NO_SUPERUSER_SQL =
  'the sandbox never runs a migration\u2019s own SQL as a superuser (a superuser can run programs on the analysis host, e.g. COPY ... TO PROGRAM)';

/**
 * Applies a statement that writes a system catalog (`write`, not `none`) in the run's database,
 * when the target's role would be allowed to: see docs/migration-analysis.md, "Catalog writes".
 * Returns false when the statement should simply run as the sandbox role (the target's role is
 * no superuser, so PostgreSQL refuses it there as it does here). Throws when the sandbox cannot
 * vouch for it, saying why.
 *
 * The migration's text never runs as the superuser: only a fixed UPDATE of pg_index's two
 * flags, with the constant values and the table's oid (resolved as the sandbox role) bound as
 * parameters.
 */
export async function replayCatalogWrite(write: CatalogWrite, ctx: CatalogReplayContext): Promise<boolean> {
  if (write.kind === 'none' || !ctx.targetSuperuser) return false;
  if (write.kind === 'refused')
    throw new Error(
      `writes the system catalog ${write.catalog} directly, which needs a superuser; ${NO_SUPERUSER_SQL}, and the only catalog write it replays is switching pg_index.indisready or indisvalid for one table (UPDATE pg_index SET indisready = false WHERE indrelid = 'table'::regclass), so it cannot vouch for this statement`,
    );
  if (ctx.inTransaction)
    throw new Error(
      `writes pg_index inside a transaction block; ${NO_SUPERUSER_SQL}, and the fixed update it replays in its place runs in a session of its own, outside the migration's transaction, so it cannot vouch for this statement`,
    );
  // The same lookups PostgreSQL does for the statement, as the sandbox role and on its path.
  let oid: string | undefined;
  if ('regclass' in write.relation) {
    oid = (await ctx.sandbox.query<{ oid: string }>('SELECT $1::text::pg_catalog.regclass::pg_catalog.oid AS oid', [write.relation.regclass])).rows[0]?.oid;
  } else {
    const { rows } = await ctx.sandbox.query<{ oid: string }>('SELECT oid FROM pg_catalog.pg_class WHERE relname = $1', [write.relation.relname]);
    if (rows.length > 1) throw new Error('more than one row returned by a subquery used as an expression');
    oid = rows[0]?.oid;
  }
  if (oid === undefined) return true; // `indrelid = NULL`: the statement updates no row
  const params: unknown[] = [];
  const set = write.set.map((s) => `${s.column} = $${params.push(s.value)}`).join(', ');
  // Column names come from the fixed set IndexFlag, never from the statement's text.
  await (await ctx.superuser()).query(`UPDATE pg_catalog.pg_index SET ${set} WHERE ${write.by} = $${params.push(oid)}`, params);
  return true;
}
