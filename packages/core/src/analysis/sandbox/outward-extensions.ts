/** Extensions whose functions reach other servers or the server's files: no run may call them. */
export const OUTWARD_EXTENSIONS = ['dblink', 'postgres_fdw', 'file_fdw', 'adminpack'] as const;

/**
 * Who keeps the fenced objects: `postgres` on the embedded server (its superuser), the
 * configured role on a sandbox server (`CURRENT_USER` of the session that fences). Never a
 * run's role: an owner may grant itself what the fence revokes.
 */
export type FenceKeeper = 'postgres' | 'CURRENT_USER';

/**
 * A DO block that keeps a migration inside its clone, run in the clone's database by a role
 * that owns (or may take) what it fences: the functions of {@link OUTWARD_EXTENSIONS} go to
 * `keeper` with EXECUTE revoked from PUBLIC, every user mapping (with whatever credentials it
 * holds) is dropped, and the foreign servers the session's role owns go to `keeper` with USAGE
 * revoked from PUBLIC. A migration that calls `dblink_exec` then fails in the sandbox (no token)
 * instead of writing to the live database. Both engines run this same text.
 */
export function fenceOutwardExtensions(keeper: FenceKeeper): string {
  return `DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT p.oid::regprocedure::text AS f
             FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid JOIN pg_proc p ON p.oid = d.objid
            WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
              AND e.extname IN (${OUTWARD_EXTENSIONS.map((x) => `'${x}'`).join(', ')}) LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO ${keeper}', r.f);
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', r.f);
  END LOOP;
  -- The view, not the catalog: only superusers may read pg_user_mapping.
  FOR r IN SELECT srvname, umuser FROM pg_user_mappings LOOP
    EXECUTE format('DROP USER MAPPING FOR %s SERVER %I', CASE WHEN r.umuser = 0 THEN 'PUBLIC' ELSE quote_ident(r.umuser::regrole::text) END, r.srvname);
  END LOOP;
  FOR r IN SELECT srvname FROM pg_foreign_server WHERE srvowner = current_user::regrole LOOP
    EXECUTE format('ALTER SERVER %I OWNER TO ${keeper}', r.srvname);
    EXECUTE format('REVOKE USAGE ON FOREIGN SERVER %I FROM PUBLIC', r.srvname);
  END LOOP;
END $$`;
}
