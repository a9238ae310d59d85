import { quoteIdent } from '../../../pg/quote';
import { type AdminConnect, withAdmin } from './run-role';

/**
 * Roles of the target a migration names, made on the embedded server for the length of one run
 * (docs/migration-analysis.md, "Roles of the target"). A migration that grants to `anon` from a
 * DO block, or writes a policy `TO service_role`, fails on a clone without those roles although
 * the target has them. Roles live in the whole cluster, not in the run's database, so a mirror
 * role is: made by the server's superuser, NOLOGIN and NOINHERIT, member of nothing, with no
 * member (the run's role gets neither membership nor ADMIN on it: it may grant its own objects to
 * it, no more), held by one run at a time (a lock per name in this process), and dropped after
 * the run's database is gone.
 */

/** One holder per role name at a time, in this process (the embedded server belongs to it). */
export class RoleNameLocks {
  private readonly held = new Map<string, Promise<void>>();

  /** Waits for every name (taken one by one in sorted order, so two runs never wait on each other); the result gives them back. */
  async acquire(names: readonly string[]): Promise<() => void> {
    const releases: Array<() => void> = [];
    for (const name of [...names].sort()) {
      for (;;) {
        const busy = this.held.get(name);
        if (!busy) break;
        await busy;
      }
      let release!: () => void;
      this.held.set(
        name,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      releases.push(() => {
        this.held.delete(name);
        release();
      });
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      for (const r of releases) r();
    };
  }
}

/** Makes the names that do not exist on the server yet; returns those it made (the ones to drop after the run). */
export async function createMirrorRoles(connect: AdminConnect, names: readonly string[]): Promise<string[]> {
  if (!names.length) return [];
  return withAdmin(connect, undefined, async (c) => {
    const existing = await c.query<{ rolname: string }>('SELECT rolname FROM pg_catalog.pg_roles WHERE rolname = ANY($1::text[])', [names]);
    const have = new Set(existing.rows.map((r) => r.rolname));
    const made: string[] = [];
    for (const name of names) {
      if (have.has(name)) continue;
      await c.query(`CREATE ROLE ${quoteIdent(name)} NOLOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS`);
      made.push(name);
    }
    return made;
  });
}

/**
 * Drops the mirror roles once the run's database is gone. A role another database still grants
 * something to (a concurrent run's migration granting to the same name) cannot be dropped: it
 * stays, as idle as it was made, and the next run that names it finds it there.
 */
export async function dropMirrorRoles(connect: AdminConnect, names: readonly string[]): Promise<void> {
  if (!names.length) return;
  await withAdmin(connect, undefined, async (c) => {
    for (const name of names) await c.query(`DROP ROLE IF EXISTS ${quoteIdent(name)}`).catch(() => undefined);
  });
}
