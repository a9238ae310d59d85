import { analyzeOnConnection, takeAnalysisSlot } from '@dbops/core/analysis';
import { MAX_STATEMENTS } from '@dbops/core/pg';
import { z } from 'zod';
import { defineHandler, uuidParam } from '../http/define-handler';
import { bare } from '../http/responses';
import { withinStatementLimit } from '../http/statement-limit';
import { domainDeps } from '../runtime/domain-deps';
import { logger } from '../runtime/logger';

/** Longest migration text accepted (1 MiB): more than any hand-written migration. */
const MAX_SQL_BYTES = 1024 * 1024;

const body = z.object({
  sql: z
    .string()
    .min(1)
    .refine((s) => s.trim().length > 0, 'sql must contain at least one statement')
    .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_SQL_BYTES, `sql must be at most ${MAX_SQL_BYTES} bytes`)
    .superRefine(withinStatementLimit(MAX_STATEMENTS.migration)),
});

/**
 * POST /api/v1/connections/{connection_id}/migrations/analyze: the analysis report, bare (the
 * spec's reference form), with an approval token only when the sandbox passed.
 */
export const handler = defineHandler('migrations-analyze', {
  params: uuidParam('connection_id'),
  body,
  // A user's analyses at once are limited per process (docs/migration-analysis.md, "Isolation model").
  admit: ({ auth, container }) => takeAnalysisSlot(auth.userId, container.settings.sandbox.concurrencyPerUser),
  async handle({ body, params, auth, container }) {
    const phases: Array<[string, number]> = [];
    const report = await analyzeOnConnection(domainDeps(container), { userId: auth.userId, connectionId: params.connection_id, sql: body.sql }, phases);
    // Where an analysis spent its time (DBOPS_LOG_LEVEL=debug; bench/first-analysis.ts reads it).
    logger.debug('analysis phases', { connection_id: params.connection_id, phases_ms: Object.fromEntries(phases) });
    return bare(report);
  },
});
