import { expect } from 'vitest';
import type { AnalysisReport } from '@dbops/core/analysis';
import { readSchemaFingerprint } from '../../packages/core/src/analysis/schema-compare/schema-compare';
import type { ConnectedRuntime } from './connections';
import { waitForRequest } from './migration-execution';
import { sql } from './scratch-database';

/** POST .../migrations/analyze on the runtime's connection; with `introspect`, a fresh snapshot first (the previous test changed the schema). */
export async function analyzeOn(f: ConnectedRuntime, text: string, options: { introspect?: boolean } = {}) {
  if (options.introspect) {
    const intro = await f.t.request('POST', `/connections/${f.connectionId}/introspect`, { apiKey: f.apiKey });
    expect(intro.status, intro.text).toBe(200);
  }
  return f.t.request<AnalysisReport>('POST', `/connections/${f.connectionId}/migrations/analyze`, { apiKey: f.apiKey, body: { sql: text } });
}

/** Executes a safe plan with its own token, accepted (202), and waits for the request to end: completed. */
export async function executeSafePlan(
  f: ConnectedRuntime,
  plan: { approval_token: string | null; combined_script: string },
  timeoutMs = 180_000,
): Promise<Record<string, any>> {
  const started = await f.t.request('POST', '/migrations/execute', {
    apiKey: f.apiKey,
    body: { approval_token: plan.approval_token, sql: plan.combined_script, connection_id: f.connectionId },
  });
  expect(started.status, started.text).toBe(202);
  const done = await waitForRequest(f.t, f.apiKey, started.body.data.request_id, timeoutMs);
  expect(done.status, JSON.stringify(done.error)).toBe('completed');
  return done;
}

/** The rollback proof's schema fingerprint of the database at `url`. */
export const fingerprintOf = (url: string) => readSchemaFingerprint((q) => sql<{ kind: string; name: string; def: string }>(url, q).then((rows) => ({ rows })));

/** A table's column names in their order. */
export const columnsOf = async (url: string, table: string): Promise<string[]> =>
  (
    await sql<{ name: string }>(
      url,
      `SELECT attname AS name FROM pg_attribute WHERE attrelid = '${table}'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    )
  ).map((r) => r.name);
