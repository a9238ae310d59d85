import { analyzeStatements } from '@dbops/core/analysis';
import { parseStatements } from '@dbops/core/analysis';
import { type PreflightReport, runPreflight } from '@dbops/core/analysis';
import type { PreflightLimits } from '@dbops/core/analysis';
import { buildSchemaIndex } from '@dbops/core/analysis';
import { buildSnapshot } from '@dbops/core/analysis';
import pg from 'pg';
import { readTargetSchema } from '../../packages/core/src/introspection/catalog-read';
import { createScratchDatabase, sql } from './scratch-database';

/** A scratch database holding `setupSql`, and a preflight runner against it. */
export interface PreflightFixture {
  url: string;
  /**
   * Runs the preflight of `migration` on the fixture database, as `role` when given; with
   * `liveSchema`, the statements' facts read the database's schema as the service's snapshot
   * would (otherwise an empty one: a type change's old type unknown, no constraints).
   */
  preflight(migration: string, limits?: Partial<PreflightLimits>, role?: string, options?: { liveSchema?: boolean }): Promise<PreflightReport>;
  drop(): Promise<void>;
}

export async function preflightFixture(setupSql: string): Promise<PreflightFixture> {
  const db = await createScratchDatabase('pf');
  await sql(db.url, setupSql);
  return {
    url: db.url,
    async preflight(migration, limits = {}, role, options = {}) {
      const parsed = await parseStatements(migration);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const snapshot = options.liveSchema
          ? { snapshot_id: 'fixture', connection_id: 'fixture', introspected_at: new Date().toISOString(), ...(await readTargetSchema(client)) }
          : buildSnapshot([]);
        const items = analyzeStatements(parsed, buildSchemaIndex(snapshot));
        if (role) await client.query(`SET ROLE ${role}`);
        return await runPreflight({ parsed, facts: items.map((i) => i.facts), client, limits });
      } finally {
        await client.end();
      }
    },
    drop: () => db.drop(),
  };
}

/** The one finding of a report for `check` (throws when there is not exactly one). */
export function only(report: PreflightReport, check: string) {
  const found = report.findings.filter((f) => f.check === check);
  if (found.length !== 1) throw new Error(`expected one ${check} finding, got ${JSON.stringify(report.findings)}`);
  return found[0]!;
}
