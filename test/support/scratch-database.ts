import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** Admin URL of the run's real PostgreSQL server (see test/global-setup.ts). */
export const targetServerUrl = (): string => inject('targetDatabaseUrl');

/** The same server URL pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A fresh, empty database on the test server, so test files never see each other's tables.
 * Returns its admin URL and a function that drops it.
 */
export async function createScratchDatabase(prefix = 't'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: targetServerUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(targetServerUrl(), name),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: targetServerUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Runs SQL on a database as its admin and returns the rows. */
export async function sql<R extends object = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as R[];
  } finally {
    await c.end();
  }
}
