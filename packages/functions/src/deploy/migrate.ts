import { loadSettings } from '@dbops/core/config';
import { migrate } from '@dbops/core/store';
import { serviceMigrations } from '@dbops/core/store/migrations';
import { PgStore } from '@dbops/core/store';
import type { Store } from '@dbops/core/store';
import { errorFields, logger } from '../runtime/logger';

/** What the deploy sees (and Pulumi records as the invocation's result). */
export interface DeployMigrationResult {
  /** Migration ids applied by this run; empty when the schema was already current. */
  applied: string[];
  /** Migrations known to this build. */
  known: number;
  /** The installed pgvector version. */
  vectorVersion: string;
}

/**
 * Brings the service's own schema up to date: pgvector first (documents' embeddings need it;
 * on RDS the master user may create it), then every migration not yet recorded. Idempotent, so
 * the deploy runs it every time.
 */
export async function runServiceMigrations(store: Store): Promise<DeployMigrationResult> {
  try {
    await store.exec('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (error) {
    throw new Error(`the pgvector extension is not available on the state database: ${(error as Error).message}`, { cause: error });
  }
  const applied = await migrate(store, serviceMigrations);
  const { rows } = await store.query<{ extversion: string }>("SELECT extversion FROM pg_extension WHERE extname = 'vector'");
  return { applied, known: serviceMigrations.length, vectorVersion: rows[0]?.extversion ?? 'unknown' };
}

/**
 * Lambda invoked by `sst deploy` (infra/deploy-migrations.ts) with the state database's URL in
 * `DBOPS_DATABASE_URL`. Imports only the `pg` store, so it does not ship PGlite. Throwing fails
 * the invocation and with it the deploy.
 */
export const handler = async (): Promise<DeployMigrationResult> => {
  const settings = loadSettings();
  if (!settings.databaseUrl) throw new Error('DBOPS_DATABASE_URL must be set');
  const store = new PgStore({ connectionString: settings.databaseUrl });
  try {
    const result = await runServiceMigrations(store);
    logger.info('service migrations applied', { applied: result.applied, known: result.known, vectorVersion: result.vectorVersion });
    return result;
  } catch (error) {
    logger.error('service migrations failed', errorFields(error));
    throw error;
  } finally {
    await store.close();
  }
};
