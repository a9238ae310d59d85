import type { OptimizationSettings, ServiceSettings } from '../config';

export type { OptimizationSettings };

/** Settings of query optimization (documented in docs/query-optimization.md). */
export const optimizationSettings = (settings: ServiceSettings): OptimizationSettings => settings.optimization;
