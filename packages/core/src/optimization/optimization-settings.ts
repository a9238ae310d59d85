import type { ServiceSettings } from '../config';

const positive = (raw: string | undefined, fallback: number): number => {
  const n = raw ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Settings of query optimization, read from the environment (documented in docs/query-optimization.md). */
export interface OptimizationSettings {
  /** Statement timeout of EXPLAIN ANALYZE runs (`DBOPS_OPTIMIZE_ANALYZE_TIMEOUT_MS`, default 30000). */
  analyzeTimeoutMs: number;
  /** Statement timeout of every other statement on the user's database (`DBOPS_OPTIMIZE_STATEMENT_TIMEOUT_MS`, default 15000). */
  statementTimeoutMs: number;
  /** Document chunks retrieved as context (`DBOPS_OPTIMIZE_DOC_CHUNKS`, default 5). */
  documentChunks: number;
  /** `auto` uses HypoPG where the database has it; `off` never touches it (`DBOPS_OPTIMIZE_HYPOPG`, default auto). */
  hypopg: 'auto' | 'off';
  /** `offline` (default) or `openai` (`DBOPS_INDEX_SUGGESTER`). */
  suggester: 'offline' | 'openai';
}

export function optimizationSettings(settings: ServiceSettings): OptimizationSettings {
  const env = settings.env;
  return {
    analyzeTimeoutMs: positive(env.DBOPS_OPTIMIZE_ANALYZE_TIMEOUT_MS, 30_000),
    statementTimeoutMs: positive(env.DBOPS_OPTIMIZE_STATEMENT_TIMEOUT_MS, 15_000),
    documentChunks: positive(env.DBOPS_OPTIMIZE_DOC_CHUNKS, 5),
    hypopg: env.DBOPS_OPTIMIZE_HYPOPG === 'off' ? 'off' : 'auto',
    suggester: env.DBOPS_INDEX_SUGGESTER === 'openai' ? 'openai' : 'offline',
  };
}
