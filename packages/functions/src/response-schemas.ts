import { z } from 'zod';

// What the routes answer on success, as zod schemas the route table (routes.ts) attaches to its
// routes: `data` of an envelope route, the whole body of a bare one. They are the one description
// of the responses: the OpenAPI document emits them, the CLI's client takes its types from them
// (`ResponseOf<'handler'>` in routes.ts), and the local runtime checks every answer against them
// in tests (gateway `checkResponses`). Each is also checked at compile time against the domain type
// the handler returns (response-schemas-match.ts), so a field the domain gains is a type error.
// This file imports no domain code: the route table imports it, and infra/ reads the route table
// without type-checking the domain under SST's own global types.

const timestamp = z.iso.datetime({ offset: true });
const severity = z.enum(['error', 'warning', 'info']);
const riskCategory = z.enum(['low', 'medium', 'high', 'critical']);
const lockMode = z.enum([
  'ACCESS SHARE',
  'ROW SHARE',
  'ROW EXCLUSIVE',
  'SHARE UPDATE EXCLUSIVE',
  'SHARE',
  'SHARE ROW EXCLUSIVE',
  'EXCLUSIVE',
  'ACCESS EXCLUSIVE',
  'NONE',
]);

export const healthResponse = z.object({
  status: z.literal('ok'),
  version: z.literal('v1'),
  store: z.string(),
  mode: z.string(),
});

/** The spec's Connection resource. */
export const connectionResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  db_type: z.string(),
  host: z.string(),
  port: z.number().int(),
  database_name: z.string(),
  is_active: z.boolean(),
  created_at: timestamp,
  last_introspected_at: timestamp.nullable(),
});

export const connectionListResponse = z.array(connectionResponse);

const affectedTable = z.object({
  table: z.string(),
  impact: z.enum(['direct', 'cascade']),
  cascade_path: z.array(z.string()).nullable(),
});

const rollbackStep = z.object({
  statement_index: z.number().int(),
  sql: z.string(),
  reversible: z.boolean(),
  warning: z.string().nullable(),
});

/** The migration analysis report (spec section 2), bare. */
export const analysisReportResponse = z.object({
  connection_id: z.uuid(),
  total_statements: z.number().int(),
  risk_score: z.number(),
  risk_category: riskCategory,
  statements: z.array(
    z.object({
      index: z.number().int(),
      sql: z.string(),
      statement_type: z.string(),
      table: z.string(),
      lock_type: lockMode,
      lock_duration_ms: z.number(),
      risk_score: z.number(),
      risk_category: riskCategory,
      affected_tables: z.array(affectedTable),
      rollback: rollbackStep,
      warnings: z.array(z.string()),
    }),
  ),
  affected_tables: z.array(affectedTable),
  rollback_plan: z.object({ steps: z.array(rollbackStep), combined_script: z.string(), has_irreversible: z.boolean() }),
  warnings: z.array(z.string()),
  findings: z.array(
    z.object({
      rule: z.string(),
      severity,
      statement_index: z.number().int(),
      message: z.string(),
      safer: z.string().nullable(),
      location: z.object({ line: z.number().int(), column: z.number().int() }),
    }),
  ),
  business_narrative: z.object({
    summary: z.string(),
    affected_processes: z.array(z.string()),
    citations: z.array(z.object({ document_filename: z.string(), excerpt: z.string(), relevance: z.number() })),
    schema_only: z.boolean(),
  }),
  impact_chains: z.array(
    z.object({
      statement_index: z.number().int(),
      root: z.string(),
      path: z.array(z.string()),
      via: z.array(z.string()),
      action: z.string(),
      depth: z.number().int(),
      description: z.string(),
    }),
  ),
  sandbox_result: z.object({
    passed: z.boolean(),
    migration_applied: z.boolean(),
    migration_error: z.string().nullable(),
    tables_created: z.number().int(),
    rows_inserted: z.number().int(),
    validation_results: z.array(z.object({ check: z.string(), passed: z.boolean(), detail: z.string() })),
    duration_ms: z.number(),
  }),
  approval_token: z.string().nullable(),
  non_transactional_statements: z.array(z.object({ statement_index: z.number().int(), statement_type: z.string(), sql: z.string(), reason: z.string() })),
  context_used: z.boolean(),
});

/** POST /migrations/execute's `data`: the request it queued (or, for a used token, already had). */
export const executeAcceptedResponse = z.object({
  request_id: z.uuid(),
  status: z.enum(['pending', 'executing', 'completed', 'failed']),
});

const migrationResult = z.object({
  tables_added: z.array(z.string()),
  tables_removed: z.array(z.string()),
  columns_added: z.array(z.object({ table: z.string(), column: z.string(), type: z.string() })),
  execution_time_ms: z.number(),
});

const migrationError = z.object({
  code: z.string(),
  message: z.string(),
  statement_index: z.number().int().nullable(),
  applied_non_transactional: z.array(z.object({ statement_index: z.number().int(), sql: z.string() })),
  committed_transactional: z.array(z.number().int()),
  rolled_back: z.boolean(),
  invalid_indexes: z.array(z.string()),
  hint: z.string().nullable(),
  catalog_check: z
    .object({
      checked_at: timestamp,
      terminated_backends: z.number().int(),
      statements: z.array(
        z.object({
          statement_index: z.number().int(),
          state: z.enum(['applied', 'not_applied', 'left_invalid', 'unknown']),
          evidence: z.string(),
        }),
      ),
      error: z.string().optional(),
    })
    .optional(),
});

/** The migration request record (spec section 2), bare. */
export const migrationRequestResponse = z.object({
  request_id: z.uuid(),
  status: z.enum(['pending', 'executing', 'completed', 'failed']),
  progress: z.string().nullable(),
  sql: z.string(),
  connection_id: z.uuid(),
  result: migrationResult.nullable(),
  error: migrationError.nullable(),
  created_at: timestamp,
  started_at: timestamp.nullable(),
  completed_at: timestamp.nullable(),
});

export const migrationRequestListResponse = z.array(migrationRequestResponse);

const keyPolicy = z.object({
  max_caller: z.enum(['human', 'agent']),
  max_guardrail: z.enum(['strict', 'moderate', 'permissive']),
  read_only: z.boolean(),
  connection_ids: z.array(z.uuid()).nullable(),
  allow_opaque_functions: z.boolean(),
});

/** An API key as listed: never the key itself. */
export const apiKeyResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  created_at: timestamp,
  policy: keyPolicy.optional(),
});

export const apiKeyListResponse = z.array(apiKeyResponse);

/** POST /api-keys: the raw key, shown this once. */
export const apiKeyCreatedResponse = apiKeyResponse.extend({ key: z.string().startsWith('dbo_') });

export const apiKeyRevokedResponse = z.object({ id: z.uuid(), revoked: z.literal(true) });

/** Money is NUMERIC text (4 places), never a float. */
const credits = z.string().regex(/^-?\d+\.\d{4}$/);

export const balanceResponse = z.object({
  balance: credits,
  total_spent: credits,
  total_requests: z.number().int(),
  cost_per_request: credits,
});

export const usageResponse = z.object({
  usage: z.array(z.object({ path: z.string(), method: z.string(), cost: credits, created_at: timestamp })),
  count: z.number().int(),
});

export const paymentsResponse = z.object({
  payments: z.array(
    z.object({
      id: z.uuid(),
      session_id: z.string(),
      amount_cents: z.number().int(),
      currency: z.string(),
      credits,
      credits_added: credits,
      status: z.enum(['pending', 'completed', 'expired', 'failed']),
      receipt_url: z.string().nullable(),
      created_at: timestamp,
      completed_at: timestamp.nullable(),
    }),
  ),
  count: z.number().int(),
});

export const documentDeletedResponse = z.object({ id: z.uuid(), deleted: z.literal(true) });

/** What every answer says of a stored document. */
const storedDocument = z.object({
  id: z.uuid(),
  filename: z.string(),
  chunk_count: z.number().int(),
  size_bytes: z.number().int(),
  content_type: z.string(),
});

export const documentListResponse = z.array(storedDocument.extend({ uploaded_at: timestamp }));

/** What introspection answers (the snapshot's summary). */
export const snapshotSummaryResponse = z.object({
  connection_id: z.uuid(),
  table_count: z.number().int(),
  tables: z.array(z.string()),
  snapshot_id: z.string(),
  introspected_at: timestamp,
});

/** A batch's stored documents: the multipart upload's answer and a completed batch's `result`. */
export const uploadResultResponse = z.object({
  files_processed: z.number().int(),
  total_chunks: z.number().int(),
  documents: z.array(storedDocument.extend({ replaced: z.boolean() })),
});

/** An upload batch (docs/documents.md, "Upload slots"); `slots` only in the answer that opens it. */
export const documentBatchResponse = z.object({
  batch_id: z.uuid(),
  connection_id: z.uuid(),
  status: z.enum(['awaiting_upload', 'queued', 'ingesting', 'completed', 'failed']),
  created_at: timestamp,
  expires_at: timestamp,
  confirmed_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  files: z.array(z.object({ filename: z.string(), size_bytes: z.number().int(), content_type: z.string(), uploaded: z.boolean() })),
  result: uploadResultResponse.nullable(),
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }).nullable(),
  rejections: z.array(z.object({ filename: z.string(), reason: z.string(), code: z.string(), message: z.string() }).catchall(z.unknown())),
  slots: z
    .array(
      z.object({
        filename: z.string(),
        method: z.enum(['PUT', 'POST']),
        url: z.string(),
        headers: z.record(z.string(), z.string()),
        fields: z.record(z.string(), z.string()),
        expires_at: timestamp,
      }),
    )
    .optional(),
});

/** A managed database (its connection string only ever in the creation answer, not described here). */
export const provisionedDatabaseResponse = z.object({
  id: z.uuid(),
  connection_id: z.uuid().nullable(),
  name: z.string(),
  schema_name: z.string(),
  status: z.string(),
  created_at: timestamp,
});

export const provisionedListResponse = z.object({
  databases: z.array(provisionedDatabaseResponse),
  count: z.number().int(),
  limit: z.number().int(),
});
