import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pg15Unavailable, startPg15, type Pg15Server } from '../support/pg15-server';
import { sql, withDatabase } from '../support/scratch-database';
import { rebuildAndCompare, type FidelityResult } from '../support/schema-fidelity';

const unavailable = pg15Unavailable();
if (unavailable) console.warn(`schema zoo fidelity test skipped: ${unavailable}`);

// Real PostgreSQL 15 and its pg_dump: the zoo is loaded, introspected, rebuilt from schemaDdl in
// an empty database, and both are dumped.
describe.skipIf(unavailable !== null)('schema zoo: schemaDdl rebuilds what pg_dump sees', () => {
  let server: Pg15Server;
  let result: FidelityResult;
  beforeAll(async () => {
    server = await startPg15();
    await sql(server.url, 'CREATE DATABASE zoo');
    await sql(server.url, 'CREATE DATABASE zoo_clone');
    await sql(withDatabase(server.url, 'zoo'), await readFile(new URL('../fixtures/schema-zoo.sql', import.meta.url), 'utf8'));
    result = await rebuildAndCompare(withDatabase(server.url, 'zoo'), withDatabase(server.url, 'zoo_clone'));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('runs every statement without error and skips nothing', () => {
    expect(result.failed).toEqual([]);
    expect(result.ddl.skipped).toEqual([]);
  });

  it('gives a clone whose pg_dump --schema-only equals the source', () => {
    expect(result.differences).toEqual([]);
    expect(result.cloneDump).toBe(result.sourceDump);
    // The dump is not trivially equal: it holds the zoo.
    for (const needle of [
      'CREATE DOMAIN public.positive_int',
      'CREATE AGGREGATE public.concat_all',
      'ATTACH PARTITION public.measurement_2025',
      'CREATE POLICY small_orders',
      'INHERITS (public.animal)',
      'CREATE RULE cache_keep',
    ]) {
      expect(result.sourceDump).toContain(needle);
    }
  });

  it('orders objects after what they depend on', () => {
    const at = (object: string): number => result.ddl.statements.findIndex((s) => s.object === object);
    expect(at('public.v_user')).toBeLessThan(at('public.v_user_orders'));
    expect(at('public.is_even(n integer)')).toBeLessThan(at('public.order'));
    expect(at('Mixed Case.next_code()')).toBeLessThan(at('public.user'));
    expect(at('public.user')).toBeLessThan(at('public.user_by_id(uid bigint)'));
    expect(at('public.order_count()')).toBeLessThan(at('public.v_user_orders'));
  });
});
