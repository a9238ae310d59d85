import type { Store } from './store';

/** One step of the service's own schema. Ids sort in the order they must run. */
export interface SchemaMigration {
  id: string;
  /** Statements run in order inside one transaction; one statement per entry. */
  statements: readonly string[];
  /**
   * The stores the statements are for (default: both). On another store the step is recorded as
   * applied without running, so ids stay one sequence everywhere.
   */
  stores?: readonly Store['kind'][];
}

const LOCK_KEY = 42_420_001;

/**
 * Applies the migrations not yet recorded in `schema_migrations`, in order, each in its own
 * transaction. An advisory lock keeps concurrent cold starts from racing on a server.
 * Returns the ids it applied.
 */
export async function migrate(store: Store, migrations: readonly SchemaMigration[]): Promise<string[]> {
  await store.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await store.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [m.id]);
      if (seen.rows.length > 0) return false;
      if (!m.stores || m.stores.includes(store.kind)) for (const statement of m.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      return true;
    });
    if (done) applied.push(m.id);
  }
  return applied;
}
