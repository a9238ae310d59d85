import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript, schemaFingerprint } from '../support/analysis';
import { type ConnectedRuntime, startConnectedRuntime } from '../support/connections';
import { optimize } from '../support/optimize';
import { createScratchDatabase, sql } from '../support/scratch-database';

// Tables and columns a new user really has: names that are SQL keywords, and mixed case with a space.
const SCHEMA = `
  CREATE TABLE "order" (id bigint PRIMARY KEY, "user" int NOT NULL, "group" int NOT NULL, "select" timestamptz NOT NULL, note text);
  CREATE TABLE "Mixed Case" (id int PRIMARY KEY, "Mixed Case" text NOT NULL, order_id bigint REFERENCES "order"(id) ON DELETE CASCADE);
  INSERT INTO "order" SELECT g, g % 500, g % 40, timestamptz '2025-01-01' + g * interval '1 minute', 'n' || g FROM generate_series(1, 60000) g;
  INSERT INTO "Mixed Case" SELECT g, 'v' || g, g FROM generate_series(1, 2000) g;
  ANALYZE;
`;

let env: ConnectedRuntime;
beforeAll(async () => {
  env = await startConnectedRuntime({ prefix: 'reserved', user: 'reserved-names', setupSql: SCHEMA });
}, 180_000);
afterAll(() => env?.close());

describe('SQL the service writes for tables and columns named order, user, group, select and "Mixed Case"', { timeout: 120_000 }, () => {
  it('index advice and rewrites run on PostgreSQL', async () => {
    const queries = [
      `SELECT * FROM "order" WHERE "user" = 7 AND "group" = 3 ORDER BY "select" DESC`,
      `SELECT * FROM "Mixed Case" WHERE "Mixed Case" = 'v10'`,
      `SELECT count(*) FROM "order" o WHERE o.id NOT IN (SELECT order_id FROM "Mixed Case" WHERE order_id IS NOT NULL)`,
      `SELECT * FROM "order" WHERE "group" + 0 = 3 ORDER BY "select" OFFSET 100 LIMIT 10`,
    ];
    const created: string[] = [];
    let rewrites = 0;
    for (const q of queries) {
      const res = await optimize(env.t, env.apiKey, env.connectionId, q);
      expect(res.status, res.text).toBe(200);
      for (const rec of res.body.index_recommendations) {
        // Each recommendation runs as written (CONCURRENTLY: outside a transaction).
        await sql(env.db.url, rec.create_sql);
        created.push(rec.create_sql);
      }
      for (const alt of res.body.alternatives) {
        await sql(env.db.url, `EXPLAIN ${alt.rewritten_sql}`);
        rewrites++;
      }
    }
    expect(created.some((c) => c.includes('"order"') && c.includes('"user"') && c.includes('"group"'))).toBe(true);
    expect(created.some((c) => c.includes('"Mixed Case"'))).toBe(true);
    expect(rewrites).toBeGreaterThan(0);
    // `user` bare would index CURRENT_USER: the index really is on the column.
    const defs = await sql<{ indexdef: string }>(env.db.url, `SELECT indexdef FROM pg_indexes WHERE tablename = 'order' AND indexdef LIKE '%"user"%'`);
    expect(defs.length).toBeGreaterThan(0);
  });

  it('the sandbox clones the schema, passes, and the rollback script restores it', async () => {
    const migration = [
      `ALTER TABLE "order" ADD COLUMN "from" text`,
      `ALTER TABLE "order" ALTER COLUMN "user" DROP NOT NULL`,
      `CREATE INDEX "Mixed Idx" ON "order" ("group", "select")`,
      `ALTER TABLE "Mixed Case" RENAME COLUMN "Mixed Case" TO "Other Case"`,
      `ALTER TABLE "Mixed Case" ADD CONSTRAINT "check" CHECK (id > 0)`,
    ].join(';\n');
    const copy = await createScratchDatabase('reservedcopy');
    try {
      await sql(copy.url, SCHEMA);
      const before = await schemaFingerprint(copy.url);
      const res = await env.t.request('POST', `/connections/${env.connectionId}/migrations/analyze`, { apiKey: env.apiKey, body: { sql: migration } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.sandbox_result.passed, JSON.stringify(res.body.sandbox_result)).toBe(true);
      expect(res.body.approval_token).toEqual(expect.any(String));
      await runScript(copy.url, migration);
      expect(await schemaFingerprint(copy.url)).not.toEqual(before);
      await runScript(copy.url, res.body.rollback_plan.combined_script);
      expect(await schemaFingerprint(copy.url)).toEqual(before);
    } finally {
      await copy.drop();
    }
  });
});
