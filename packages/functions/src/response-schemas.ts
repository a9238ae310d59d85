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
  rollback_plan: z.object({
    steps: z.array(rollbackStep),
    combined_script: z.string(),
    has_irreversible: z.boolean(),
    verified: z
      .boolean()
      .nullable()
      .describe(
        'true: the sandbox ran combined_script on the migrated clone and got the clone back as before; false: it did not (see verification); null: the proof could not run',
      ),
    verification: z.string().describe('what the round trip found, in words'),
  }),
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
  safe_plan: z
    .object({
      steps: z.array(
        z.object({
          index: z.number().int(),
          sql: z.string(),
          transactional: z.boolean(),
          lock_type: lockMode,
          lock_duration_ms: z.number(),
          batched: z.boolean(),
        }),
      ),
      combined_script: z.string(),
      approval_token: z.string().nullable(),
      equivalent: z.boolean(),
      explanation: z.string(),
    })
    .nullable(),
  safe_plan_reason: z.string().nullable(),
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
  // Beyond the spec: a batched step's progress (docs/api-decisions.md).
  rows_done: z.number().int().nullable(),
  rows_total: z.number().int().nullable(),
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

/** POST /provision: the database and, this once, the connection string of its own login role. */
export const provisionedDatabaseCreatedResponse = provisionedDatabaseResponse.extend({ connection_string: z.string() });

/** A node of an execution plan (spec section 2): the spec's fields, the real timings when analyzed, and the extras the advice cites. */
const planNode = z
  .object({
    node_type: z.string(),
    relation_name: z.string().nullable(),
    total_cost: z.number(),
    plan_rows: z.number(),
    plan_width: z.number(),
    get children(): z.ZodArray<typeof planNode> {
      return z.array(planNode);
    },
    actual_startup_time: z.number().optional(),
    actual_total_time: z.number().optional(),
    actual_rows: z.number().optional(),
    actual_loops: z.number().optional(),
    schema: z.string().optional(),
    alias: z.string().optional(),
    startup_cost: z.number().optional(),
    join_type: z.string().optional(),
    index_name: z.string().optional(),
    index_cond: z.string().optional(),
    filter: z.string().optional(),
    join_filter: z.string().optional(),
    hash_cond: z.string().optional(),
    merge_cond: z.string().optional(),
    rows_removed_by_filter: z.number().optional(),
    sort_key: z.array(z.string()).optional(),
    sort_method: z.string().optional(),
    sort_space_used_kb: z.number().optional(),
    sort_space_type: z.string().optional(),
    parent_relationship: z.string().optional(),
  })
  .meta({ id: 'PlanNode' });

/** The optimization result (spec section 2), bare. */
export const optimizationResponse = z.object({
  connection_id: z.uuid(),
  original_sql: z.string(),
  execution_plan: z.object({ root: planNode, raw_plan_text: z.string(), total_cost: z.number(), analyzed: z.boolean() }),
  alternatives: z.array(
    z.object({
      rank: z.number().int(),
      original_sql: z.string(),
      rewritten_sql: z.string(),
      explanation: z.string(),
      estimated_improvement: z.string(),
    }),
  ),
  index_recommendations: z.array(
    z.object({
      table_name: z.string(),
      columns: z.array(z.string()),
      index_type: z.string(),
      create_sql: z.string(),
      reason: z.string(),
      estimated_storage_impact: z.string(),
      write_overhead_warning: z.string(),
      benefits: z.array(z.string()),
      detection_method: z.enum(['rule_based', 'llm_suggested']),
      validated: z.boolean(),
      validation_method: z.enum(['hypopg', 'estimate']),
      cost_before: z.number(),
      cost_after: z.number().nullable(),
    }),
  ),
  context_used: z.boolean(),
  /** Present when `analyze=true` was asked and a plain EXPLAIN ran instead (docs/query-optimization.md). */
  analyze_skipped: z
    .object({
      code: z.enum(['GUARDRAIL_VIOLATION', 'HAS_PARAMETERS']),
      message: z.string(),
      statement_kind: z.string().optional(),
      statement: z.string().optional(),
    })
    .optional(),
});

/** The text-to-SQL result (spec section 2): every field on success and on a pipeline failure. */
export const textToSqlResponse = z.object({
  connection_id: z.uuid(),
  natural_language_query: z.string(),
  sql: z.string(),
  confidence: z.number().min(0).max(1),
  reasoning: z.string(),
  referenced_tables: z.array(z.string()),
  warnings: z.array(z.string()),
  sql_valid: z.boolean(),
  hallucinated_tables: z.array(z.string()),
  hallucinated_columns: z.array(z.string()),
  schema_chunks_used: z.number().int(),
  doc_chunks_used: z.number().int(),
  execution_error: z.string().nullable(),
  markdown_output: z.string(),
});

type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

/** The SQL execution result (spec section 2); `affected_rows` for DML only. */
export const sqlExecutionResponse = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(jsonValue)),
  row_count: z.number().int(),
  truncated: z.boolean(),
  truncated_reason: z.enum(['row_limit', 'max_bytes']).optional(),
  max_bytes: z.number().int().optional(),
  affected_rows: z.number().int().optional(),
  timeout: z.object({ requested_seconds: z.number(), applied_seconds: z.number(), capped: z.literal(true), reason: z.string() }).optional(),
});

const referentialAction = z.enum(['no_action', 'restrict', 'cascade', 'set_null', 'set_default']);

/** One requested table's metadata in the context query (docs/documents.md). */
const tableContext = z.object({
  name: z.string(),
  schema: z.string(),
  table: z.string(),
  kind: z.enum(['table', 'partitioned_table', 'view', 'materialized_view', 'foreign_table']),
  comment: z.string().nullable(),
  row_estimate: z.number(),
  total_bytes: z.number(),
  columns: z.array(
    z.object({
      name: z.string(),
      ordinal: z.number().int(),
      data_type: z.string(),
      udt_name: z.string(),
      nullable: z.boolean(),
      default: z.string().nullable(),
      identity: z.enum(['always', 'by_default']).nullable(),
      generated: z.literal('stored').nullable(),
      generation_expression: z.string().nullable().optional(),
      comment: z.string().nullable(),
      collation: z.string().nullable().optional(),
      is_local: z.boolean().optional(),
      statistics: z.number().int().optional(),
      storage: z.enum(['plain', 'external', 'main', 'extended']).optional(),
      stats: z.object({ null_frac: z.number(), common: z.array(z.string()).optional(), bounds: z.array(z.string()).optional() }).optional(),
    }),
  ),
  primary_key: z.array(z.string()).nullable(),
  constraints: z.array(
    z.object({
      name: z.string(),
      type: z.enum(['primary_key', 'unique', 'check', 'exclusion']),
      columns: z.array(z.string()),
      definition: z.string(),
      validated: z.boolean(),
      id: z.string().optional(),
      is_local: z.boolean().optional(),
    }),
  ),
  foreign_keys: z.array(
    z.object({
      name: z.string(),
      columns: z.array(z.string()),
      referenced_schema: z.string(),
      referenced_table: z.string(),
      referenced_columns: z.array(z.string()),
      on_delete: referentialAction,
      on_update: referentialAction,
      validated: z.boolean(),
      definition: z.string(),
      id: z.string().optional(),
    }),
  ),
  referenced_by: z.array(
    z.object({ table: z.string(), name: z.string(), columns: z.array(z.string()), referenced_columns: z.array(z.string()), on_delete: referentialAction }),
  ),
  indexes: z.array(
    z.object({
      name: z.string(),
      definition: z.string(),
      columns: z.array(z.string()),
      is_unique: z.boolean(),
      is_primary: z.boolean(),
      is_valid: z.boolean(),
      method: z.string(),
      predicate: z.string().nullable(),
      size_bytes: z.number(),
      id: z.string().optional(),
      parent: z.object({ schema: z.string(), name: z.string() }).nullable().optional(),
      constraint: z.string().nullable().optional(),
      clustered: z.boolean().optional(),
      replica_identity: z.boolean().optional(),
    }),
  ),
});

/** POST /connections/{id}/context/query's `data` (field names are ours: the spec does not show them). */
export const contextQueryResponse = z.object({
  connection_id: z.uuid(),
  snapshot: z.object({ snapshot_id: z.string(), introspected_at: timestamp, server_version: z.string() }).nullable(),
  tables: z.array(tableContext),
  missing_tables: z.array(z.string()),
  chunks: z.array(
    z.object({
      document_id: z.uuid(),
      filename: z.string(),
      chunk_index: z.number().int(),
      heading: z.string().nullable(),
      excerpt: z.string(),
      score: z.number().min(0).max(1),
      mentioned_tables: z.array(z.string()),
    }),
  ),
  context_used: z.boolean(),
});

/** POST /billing/checkout's `data`: where to pay, and the session the webhook will name. */
export const checkoutResponse = z.object({ checkout_url: z.url(), session_id: z.string() });

/** POST /billing/webhook's `data` once the event is verified (200, so the provider stops retrying). */
export const webhookReceivedResponse = z.object({
  received: z.literal(true),
  event_id: z.string(),
  outcome: z.enum(['applied', 'already_applied', 'recorded', 'ignored', 'needs_review', 'duplicate']),
});

/** GET /openapi.json: the document itself (validated as OpenAPI 3.1 by its own test). */
export const openApiDocumentResponse = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

const jsonRpcId = z.union([z.string(), z.number()]);
const jsonRpcAnswer = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: jsonRpcId, result: z.record(z.string(), z.unknown()) }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: jsonRpcId.nullable(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  }),
]);

/** POST /mcp (streamable HTTP, JSON answers): a JSON-RPC 2.0 answer, or a batch of them; notifications alone get 202 and no body. */
export const mcpResponse = z.union([jsonRpcAnswer, z.array(jsonRpcAnswer)]);
