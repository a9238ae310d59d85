import pg from 'pg';
import { readTargetSchema } from '../../packages/core/src/introspection/catalog-read';
import type { SchemaSnapshot } from '../../packages/core/src/introspection/schema-snapshot';
import type { SchemaDdl } from '../../packages/core/src/introspection/schema-model/ddl-statement';
import { schemaDdl } from '../../packages/core/src/introspection/schema-model/schema-ddl';
import { firstDifferences, schemaDump } from './pg15-server';

export interface FidelityResult {
  snapshot: SchemaSnapshot;
  ddl: SchemaDdl;
  /** Objects the snapshot describes (see {@link countObjects}). */
  objects: number;
  /** Statements the clone refused, with the server's message. */
  failed: Array<{ object: string; sql: string; error: string }>;
  identical: boolean;
  differences: string[];
  sourceDump: string;
  cloneDump: string;
}

/** Schemas, extensions, types, sequences, relations, columns, constraints, indexes, routines, triggers, rules, policies and comments of a snapshot. */
export function countObjects(s: SchemaSnapshot): number {
  const m = s.model;
  let n = s.schemas.length + s.extensions.length + s.enums.length + s.sequences.length;
  for (const t of s.tables) n += 1 + t.columns.length + t.constraints.length + t.foreign_keys.length + t.indexes.length;
  if (m) n += m.types.length + m.routines.length + m.triggers.length + m.rules.length + m.policies.length + m.comments.length;
  return n;
}

/** Introspects `sourceUrl` as the service does (two sessions), as a snapshot. */
export async function snapshotOf(sourceUrl: string): Promise<SchemaSnapshot> {
  const [a, b] = [new pg.Client({ connectionString: sourceUrl }), new pg.Client({ connectionString: sourceUrl })];
  await Promise.all([a.connect(), b.connect()]);
  try {
    return { snapshot_id: 'fidelity', connection_id: 'fidelity', introspected_at: new Date().toISOString(), ...(await readTargetSchema(a, undefined, b)) };
  } finally {
    await Promise.all([a.end(), b.end()]);
  }
}

/** Runs the statements in order on one session; a refused statement is recorded and the rest go on. */
export async function applyDdl(url: string, ddl: SchemaDdl): Promise<FidelityResult['failed']> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const failed: FidelityResult['failed'] = [];
  try {
    for (const s of ddl.statements) {
      try {
        await c.query(s.sql);
      } catch (e) {
        failed.push({ object: s.object, sql: s.sql, error: (e as Error).message });
      }
    }
  } finally {
    await c.end();
  }
  return failed;
}

/**
 * Introspects the source, rebuilds it with `schemaDdl` in the empty clone database, and
 * compares `pg_dump --schema-only` of both (owners, grants and dump noise left out).
 */
export async function rebuildAndCompare(sourceUrl: string, cloneUrl: string): Promise<FidelityResult> {
  const snapshot = await snapshotOf(sourceUrl);
  const ddl = schemaDdl(snapshot);
  const failed = await applyDdl(cloneUrl, ddl);
  const [sourceDump, cloneDump] = await Promise.all([schemaDump(sourceUrl), schemaDump(cloneUrl)]);
  return {
    snapshot,
    ddl,
    objects: countObjects(snapshot),
    failed,
    identical: sourceDump === cloneDump,
    differences: firstDifferences(sourceDump, cloneDump),
    sourceDump,
    cloneDump,
  };
}
