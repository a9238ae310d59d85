import { connectPg } from '../connections/connect-pg';
import { connectTimeoutMs } from '../connections/connection-settings';
import { loadConnectionTarget } from '../connections/load-connection-target';
import { findRelevantDocumentChunks, type RankedDocumentChunk } from '../context/document-context';
import { isAppError } from '../errors/app-error';
import { ensureSnapshot, type IntrospectionDeps } from '../introspection/introspect-connection';
import type { IndexSuggester } from './index-suggester';
import { guardAnalyze } from './analyze-guardrail';
import { optimizationSettings } from './optimization-settings';
import { optimizeQuery, type OptimizationDiagnostics } from './optimize-query';
import { parseTree, walkAst } from '../pg/index';
import { checkStatement } from './statement-check';
import type { OptimizationResult } from './types';

/** Table names a query mentions, for document retrieval. */
async function queryTables(sql: string): Promise<string[]> {
  const names = new Set<string>();
  try {
    walkAst((await parseTree(sql)).stmts, (v) => {
      const rv = v.RangeVar as { relname?: string } | undefined;
      if (rv?.relname) names.add(rv.relname);
    });
  } catch {
    // checkStatement reports the syntax error later.
  }
  return [...names];
}

/**
 * Optimizes `sql` on the caller's connection: NOT_FOUND for another user's or an inactive
 * connection; schema snapshot and business documents as context; one short-lived client.
 */
export async function optimizeOnConnection(
  deps: IntrospectionDeps,
  input: { userId: string; connectionId: string; sql: string; analyze: boolean; suggester: IndexSuggester; allowOpaque?: boolean },
): Promise<{ result: OptimizationResult; diagnostics: OptimizationDiagnostics }> {
  const settings = optimizationSettings(deps.settings);
  const target = await loadConnectionTarget(deps, input.userId, input.connectionId);
  // Refuse what cannot be optimized before any work on the user's database.
  const checked = await checkStatement(input.sql);

  let documents: RankedDocumentChunk[] = [];
  try {
    const snapshot = await ensureSnapshot(deps, input.userId, input.connectionId);
    const known = new Set(snapshot.tables.map((t) => t.name));
    const tableNames = (await queryTables(input.sql)).filter((t) => known.has(t));
    documents = await findRelevantDocumentChunks(deps.store, deps.embedder, {
      userId: input.userId,
      connectionId: input.connectionId,
      query: input.sql,
      tableNames,
      limit: settings.documentChunks,
    });
  } catch (e) {
    // Context is an aid: without a snapshot or documents the plan-based analysis still runs.
    if (isAppError(e) && e.code === 'NOT_FOUND') throw e;
  }

  const { client } = await connectPg(target, {
    applicationName: 'dbops-optimizer',
    statementTimeoutMs: settings.statementTimeoutMs,
    connectTimeoutMs: connectTimeoutMs(deps.settings),
  });
  try {
    const version = await client.query<{ v: string }>('SHOW server_version_num');
    const serverVersionNum = Number(version.rows[0]!.v);
    const skipped =
      (await guardAnalyze(client, input.sql, { analyze: input.analyze, allowOpaque: input.allowOpaque ?? false, serverVersionNum })) ??
      (input.analyze && checked.paramCount > 0
        ? { code: 'HAS_PARAMETERS' as const, message: 'The query has $n parameters and no values to run with: its generic plan was explained without ANALYZE.' }
        : null);
    const out = await optimizeQuery({
      connectionId: input.connectionId,
      sql: input.sql,
      analyze: input.analyze && !skipped,
      client,
      serverVersionNum,
      suggester: input.suggester,
      documents,
      analyzeTimeoutMs: settings.analyzeTimeoutMs,
      hypopg: settings.hypopg,
    });
    if (skipped) out.result.analyze_skipped = skipped;
    return out;
  } finally {
    await client.end().catch(() => undefined);
  }
}
