import type { RankedDocumentChunk } from '../context/document-context';
import { AppError } from '../errors/app-error';
import { detectHypopg, type HypopgMode } from './hypopg';
import type { IndexCandidate } from './index-candidate';
import { recommendIndexes } from './index-recommender';
import { indexRules } from './index-rules';
import type { IndexRuleContext } from './index-rules/rule-context';
import type { IndexSuggester } from './index-suggester';
import { loadLiveCatalog } from './live-catalog';
import { mapPlanNode } from './plan-mapper';
import { PlanSession, type SqlClient } from './plan-session';
import { flattenPlan, scannedRelations, type RawPlanNode } from './raw-plan';
import { rankRewrites } from './rewrite-ranker';
import { rewriteRules } from './rewrite-rules';
import { checkStatement } from './statement-check';
import { candidatesFromSuggestions } from './suggestion-candidates';
import type { OptimizationResult } from './types';

export interface OptimizeQueryInput {
  connectionId: string;
  sql: string;
  analyze: boolean;
  /** A connected client to the user's database, used by this call only. */
  client: SqlClient;
  serverVersionNum: number;
  suggester: IndexSuggester;
  documents: RankedDocumentChunk[];
  /** Statement timeout of the analyzed run. */
  analyzeTimeoutMs: number;
  /** For tests: pretend HypoPG is absent even where it is installed. */
  hypopg?: 'auto' | 'off';
}

/** What the optimizer did beyond the response, for logs, tests and the benchmark. */
export interface OptimizationDiagnostics {
  hypopg: HypopgMode;
  droppedRewrites: Array<{ rule: string; reason: string }>;
  ruleCandidates: number;
  suggestedCandidates: number;
  /** Milliseconds per phase, for the benchmark and slow-request logs. */
  timingsMs: Record<string, number>;
}

/** PostgreSQL SQLSTATE of a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

function databaseError(e: unknown): never {
  if (e instanceof AppError) throw e;
  const err = e as { code?: string; message?: string };
  if (err.code === QUERY_CANCELED) {
    throw new AppError('TIMEOUT', 'The optimization exceeded the statement timeout on the database; the statement was cancelled and rolled back');
  }
  if (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) {
    // Server messages describe the query (unknown column, type mismatch), never the connection.
    throw new AppError('SQL_ERROR', `The database could not plan the query: ${err.message ?? 'unknown error'}`, { details: { sqlstate: err.code } });
  }
  throw e;
}

/** Plans a query on the user's database and derives index recommendations and ranked rewrites. */
export async function optimizeQuery(input: OptimizeQueryInput): Promise<{ result: OptimizationResult; diagnostics: OptimizationDiagnostics }> {
  try {
    return await optimizeUnchecked(input);
  } catch (e) {
    // Database errors of any phase (plan, catalog, HypoPG, rewrites) become SQL_ERROR/TIMEOUT, never a 500.
    databaseError(e);
  }
}

async function optimizeUnchecked(input: OptimizeQueryInput): Promise<{ result: OptimizationResult; diagnostics: OptimizationDiagnostics }> {
  const timingsMs: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string): void => {
    const now = performance.now();
    timingsMs[name] = Math.round((now - mark) * 10) / 10;
    mark = now;
  };
  const checked = await checkStatement(input.sql);
  const session = new PlanSession(input.client, input.serverVersionNum, input.analyzeTimeoutMs);
  // A parameterized query cannot be executed without values: it is planned generically instead.
  const analyzed = input.analyze && checked.paramCount === 0;

  let raw: RawPlanNode;
  let text: string;
  if (analyzed) {
    ({ plan: raw, text } = await session.analyze(input.sql));
  } else {
    raw = await session.rolledBack(() => session.planJson(input.sql, checked.paramCount));
    text = await session.rolledBack(() => session.planText(input.sql, checked.paramCount));
  }
  lap('plan');
  const baseCost = raw['Total Cost'];
  const catalog = await loadLiveCatalog(input.client, scannedRelations(raw));
  lap('catalog');

  const ruleCtx: IndexRuleContext = { root: raw, visits: flattenPlan(raw), catalog, totalCost: baseCost, analyzed };
  const ruleCandidates: IndexCandidate[] = [];
  for (const { rule } of indexRules) ruleCandidates.push(...(await rule(ruleCtx)));

  let suggested: IndexCandidate[] = [];
  try {
    const suggestions = await input.suggester.suggest({ sql: input.sql, tables: [...catalog.values()], planText: text, documents: input.documents });
    suggested = await candidatesFromSuggestions(suggestions, catalog);
  } catch {
    // A failing model must not fail the optimization: the plan-based results still stand.
  }

  lap('candidates');
  const hypopg: HypopgMode = input.hypopg === 'off' ? 'absent' : await detectHypopg(session);
  const index_recommendations = await recommendIndexes({
    session,
    catalog,
    sql: input.sql,
    paramCount: checked.paramCount,
    baseCost,
    hypopg,
    candidates: [...ruleCandidates, ...suggested],
  });

  lap('indexes');
  const rewrites = await rankRewrites(
    session,
    { sql: input.sql, stmt: checked.stmt, kind: checked.kind, paramCount: checked.paramCount, catalog, documents: input.documents },
    baseCost,
    rewriteRules,
  );

  lap('rewrites');
  const suggesterUsedDocs =
    input.documents.length > 0 && input.suggester.name !== 'offline-patterns' && index_recommendations.some((r) => r.detection_method === 'llm_suggested');
  return {
    result: {
      connection_id: input.connectionId,
      original_sql: input.sql,
      execution_plan: { root: mapPlanNode(raw, analyzed), raw_plan_text: text, total_cost: baseCost, analyzed },
      alternatives: rewrites.alternatives,
      index_recommendations,
      context_used: rewrites.usedDocuments || suggesterUsedDocs,
    },
    diagnostics: { hypopg, droppedRewrites: rewrites.dropped, ruleCandidates: ruleCandidates.length, suggestedCandidates: suggested.length, timingsMs },
  };
}
