import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pg15Unavailable, type Pg15Server, startPg15 } from '../../../../../test/support/pg15-server';
import { analyzeStatements } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import { buildSnapshot } from '../snapshot-builder';
import { liveFeatures } from './live-features';

// The premise needs a visibility map that VACUUM fills: Debian's PostgreSQL 15 does; the
// embedded server of the other tests leaves relallvisible at 0, and no index-only scan pays.
const unavailable = pg15Unavailable();
if (unavailable) console.warn(`DML own-plan test skipped: ${unavailable}`);

let server: Pg15Server;
let c: pg.Client;
beforeAll(async () => {
  if (unavailable) return;
  server = await startPg15();
  c = new pg.Client({ connectionString: server.url });
  await c.connect();
  await c.query(
    `CREATE TABLE patient (id int PRIMARY KEY, vip boolean NOT NULL); INSERT INTO patient SELECT g, g % 50 = 0 FROM generate_series(1, 20000) g;
     CREATE TABLE visit (id bigint PRIMARY KEY, patient_id int NOT NULL, note text);
     INSERT INTO visit SELECT g, 1 + (g * 7919) % 20000, repeat('n', 60) FROM generate_series(1, 60000) g;
     CREATE INDEX ON visit (patient_id);`,
  );
  await c.query('VACUUM ANALYZE patient, visit');
});
afterAll(async () => {
  await c?.end();
  await server?.stop();
});

const totalCost = async (q: string): Promise<number> => Number((await c.query(`EXPLAIN (FORMAT JSON) ${q}`)).rows[0]['QUERY PLAN'][0].Plan['Total Cost']);

describe.skipIf(unavailable !== null)("a DML statement's read, priced by its own plan", () => {
  it('takes the DELETE\'s hash join over a sequential scan, not the index-only nested loop a "SELECT 1" of its rows would take', async () => {
    const migration = 'DELETE FROM visit WHERE patient_id IN (SELECT id FROM patient WHERE vip)';
    await c.query('BEGIN');
    const own = await totalCost(migration);
    await c.query('ROLLBACK');
    // The premise: the same rows selected as `SELECT 1` are read through the index alone, at half the cost.
    expect(await totalCost('SELECT 1 FROM visit WHERE patient_id IN (SELECT id FROM patient WHERE vip)')).toBeLessThan(own * 0.8);
    const [parsed] = await parseStatements(migration);
    const facts = analyzeStatements([parsed!], buildSchemaIndex(buildSnapshot([])))[0]!.facts;
    await c.query('BEGIN READ ONLY');
    const live = await liveFeatures(c, parsed!, facts);
    await c.query('ROLLBACK');
    expect(live!.features.foundByScan).toBe(true);
    expect(live!.features.scanCost).toBeGreaterThan(own * 0.95);
    expect(live!.features.scanCost).toBeLessThan(own * 1.05);
  });
});
