import { executeUnderPolicy } from '@dbops/core/accounts';
import { executeOnConnection } from '@dbops/core/sql-execution';
import { MAX_STATEMENTS } from '@dbops/core/pg';
import { answerBudget } from '@dbops/core/sql-execution';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { keyPolicyOf } from '../http/key-policy';
import { ok } from '../http/responses';
import { withinStatementLimit } from '../http/statement-limit';
import { domainDeps } from '../runtime/domain-deps';

/** Longest `sql` accepted, in characters (the spec sets none; see docs/sql-execution.md). */
const MAX_SQL_CHARS = 1_000_000;

const body = z.object({
  connection_id: z.uuid(),
  sql: z.string().min(1).max(MAX_SQL_CHARS).superRefine(withinStatementLimit(MAX_STATEMENTS.execute)),
  // Default `human` (the spec), unless the API key's policy is agent-only: see executeUnderPolicy.
  caller: z.enum(['human', 'agent']).optional(),
  guardrail: z.enum(['strict', 'moderate', 'permissive']).default('strict'),
  row_limit: z.number().int().min(1).max(10_000).default(1000),
  timeout_seconds: z.number().min(1).max(120).default(30),
});

/** POST /api/v1/execute: runs SQL on a connection; agents are held to the guardrail matrix. */
export const handler = defineHandler('sql-execute', {
  body,
  async handle({ body, auth, event, lambda, container }) {
    const { caller, guardrail, allowOpaque } = executeUnderPolicy(keyPolicyOf(auth), { caller: body.caller, guardrail: body.guardrail });
    const now = Date.now();
    const budget = answerBudget({
      requestStartMs: event.requestContext.timeEpoch ?? now,
      gatewaySeconds: container.settings.gatewayTimeoutSeconds,
      ...(typeof lambda?.getRemainingTimeInMillis === 'function' ? { lambdaRemainingMs: lambda.getRemainingTimeInMillis() } : {}),
      now,
    });
    const result = await executeOnConnection(domainDeps(container), auth.userId, body.connection_id, {
      sql: body.sql,
      caller,
      guardrail,
      allowOpaque,
      rowLimit: body.row_limit,
      timeoutSeconds: body.timeout_seconds,
      budget,
      maxResultBytes: container.settings.executeMaxResultBytes,
    });
    return ok(result);
  },
});
