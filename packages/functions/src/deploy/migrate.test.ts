import { PgliteStore } from '@dbops/core/store/pglite-store';
import { PgStore } from '@dbops/core/store';
import { serviceMigrations } from '@dbops/core/store/migrations';
import { afterEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../test/support/scratch-database';
import { handler, runServiceMigrations } from './migrate';

describe('deploy-time service migrations', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  // PGlite's first start (initdb in WASM) plus every migration is slow on a busy 2-core machine.
  it('installs pgvector and applies every migration once (PGlite with pgvector)', { timeout: 120_000 }, async () => {
    const store = await PgliteStore.open();
    cleanups.push(() => store.close());
    const first = await runServiceMigrations(store);
    expect(first.applied).toEqual(serviceMigrations.map((m) => m.id));
    expect(first.known).toBe(serviceMigrations.length);
    expect(first.vectorVersion).toMatch(/^\d+\.\d+/);
    const second = await runServiceMigrations(store);
    expect(second.applied).toEqual([]);
    const { rows } = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    expect(rows[0]?.n).toBe(serviceMigrations.length);
  });

  it('runs as the Lambda handler against a real PostgreSQL server, failing the deploy without pgvector', async () => {
    const db = await createScratchDatabase('deploy');
    cleanups.push(db.drop);
    const hasVector = (await sql(db.url, "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).length > 0;
    const saved = process.env.DBOPS_DATABASE_URL;
    process.env.DBOPS_DATABASE_URL = db.url;
    cleanups.push(async () => {
      if (saved === undefined) delete process.env.DBOPS_DATABASE_URL;
      else process.env.DBOPS_DATABASE_URL = saved;
    });
    if (hasVector) {
      const result = await handler();
      expect(result.applied).toHaveLength(serviceMigrations.length);
      expect((await handler()).applied).toEqual([]);
    } else {
      // The embedded test server has no pgvector: the deploy must stop before any migration.
      await expect(handler()).rejects.toThrow(/pgvector extension is not available/);
      const tables = await sql(db.url, "SELECT 1 FROM information_schema.tables WHERE table_name = 'schema_migrations'");
      expect(tables).toEqual([]);
    }
  });

  it('refuses to run without a database URL', async () => {
    const saved = process.env.DBOPS_DATABASE_URL;
    delete process.env.DBOPS_DATABASE_URL;
    try {
      await expect(handler()).rejects.toThrow('DBOPS_DATABASE_URL must be set');
    } finally {
      if (saved !== undefined) process.env.DBOPS_DATABASE_URL = saved;
    }
  });

  it('applies migrations on a real server when pgvector is already there', async () => {
    // Same path as RDS: the extension exists, so CREATE EXTENSION IF NOT EXISTS is a no-op.
    const db = await createScratchDatabase('deployv');
    cleanups.push(db.drop);
    const hasVector = (await sql(db.url, "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).length > 0;
    if (!hasVector) {
      const store = new PgStore({ connectionString: db.url });
      cleanups.push(() => store.close());
      await expect(runServiceMigrations(store)).rejects.toThrow(/not available/);
      return;
    }
    await sql(db.url, 'CREATE EXTENSION vector');
    const store = new PgStore({ connectionString: db.url });
    cleanups.push(() => store.close());
    expect((await runServiceMigrations(store)).applied).toHaveLength(serviceMigrations.length);
  });
});
