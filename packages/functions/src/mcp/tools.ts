import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RouteCall, RouteCaller } from './route-call';
import { toToolResult } from './tool-result';

type Data = Record<string, unknown>;
const d = (data: unknown): Data => (data ?? {}) as Data;

/**
 * MCP's behaviour hints, which clients use to decide what needs a person's confirmation.
 * "Read-only" means the user's database and the dbops account are left as they were, apart
 * from the credit charge and the snapshot or analysis records a call keeps.
 */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Every tool acts on the caller's own connections and dbops account: a closed world. */
  openWorldHint: false;
}

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

interface ToolDefinition<S extends z.ZodRawShape> {
  name: string;
  description: string;
  annotations: ToolAnnotations;
  input: S;
  call(args: z.infer<z.ZodObject<S>>): RouteCall;
  summarize(data: unknown): string;
}

const tool = <S extends z.ZodRawShape>(t: ToolDefinition<S>): ToolDefinition<S> => t;

// Inputs are typed loosely on purpose (strings, not UUIDs or ranges): the route validates them
// exactly as over HTTP, and its 422 detail comes back to the agent as the tool error.
const connectionId = z.string().describe('Connection id (UUID), from list_connections or provision_database');

/** Every tool of the dbops MCP server; each maps onto one API route. */
export const TOOLS = [
  tool({
    name: 'provision_database',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    description:
      'Create a managed PostgreSQL database (own schema and login role on the shared instance), registered as a connection. Returns connection_string once only. Limit 3 per user. Free.',
    input: { name: z.string().describe('Display name, 1-200 characters') },
    call: (a) => ({ handler: 'provision-create', body: { name: a.name } }),
    summarize: (x) =>
      `Created managed database "${d(x).name}" (id ${d(x).id}, schema ${d(x).schema_name}, connection ${d(x).connection_id}). Save connection_string now: it is not shown again.`,
  }),
  tool({
    name: 'list_provisioned_databases',
    annotations: READ,
    description: "List the caller's managed databases with count and limit. Free.",
    input: {},
    call: () => ({ handler: 'provision-list' }),
    summarize: (x) => `${d(x).count} of ${d(x).limit} managed databases in use.`,
  }),
  tool({
    name: 'delete_provisioned_database',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    description: 'Permanently drop a managed database (schema, all data, role) and deactivate its connection. Cannot be undone. Free.',
    input: { provision_id: z.string().describe('Managed database id (UUID)') },
    call: (a) => ({ handler: 'provision-delete', params: { provision_id: a.provision_id } }),
    summarize: (x) => `Dropped managed database ${d(x).id}; its connection is deactivated.`,
  }),
  tool({
    name: 'list_connections',
    annotations: READ,
    description: "List the caller's active connections (ids for the other tools). Free.",
    input: {},
    call: () => ({ handler: 'connections-list' }),
    summarize: (x) => `${Array.isArray(x) ? x.length : Array.isArray(d(x).connections) ? (d(x).connections as unknown[]).length : '?'} connections.`,
  }),
  tool({
    name: 'introspect_schema',
    annotations: READ,
    description: "Take a fresh snapshot of a connection's schema (tables, columns, indexes, foreign keys). Billable.",
    input: { connection_id: connectionId },
    call: (a) => ({ handler: 'connections-introspect', params: { connection_id: a.connection_id } }),
    summarize: () => 'Schema snapshot taken.',
  }),
  tool({
    name: 'analyze_migration',
    annotations: { ...READ, idempotentHint: false },
    description:
      'Step 1 of 2 for any schema change: analyze a SQL migration before running it (risk per statement, lock type and duration, blast radius, sandbox test, rollback plan). When the sandbox passes, the answer carries an approval_token: pass it, with the same sql byte for byte, to execute_migration. Never run DDL through execute_sql instead. Billable.',
    input: { connection_id: connectionId, sql: z.string().describe('One or more statements separated by semicolons') },
    call: (a) => ({ handler: 'migrations-analyze', params: { connection_id: a.connection_id }, body: { sql: a.sql } }),
    summarize: (x) => {
      const r = d(d(x).data ?? x);
      const risk = r.risk_score === undefined ? '' : ` (risk ${r.risk_score}/100, ${r.risk_category})`;
      return `Migration analyzed${risk}${r.approval_token ? '; an approval token was issued (pass it with the same sql to execute_migration)' : '; no approval token was issued'}.`;
    },
  }),
  tool({
    name: 'execute_migration',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    description:
      'Step 2 of 2: run a migration analyzed by analyze_migration, with its approval_token (single use, one hour; sql must equal the analyzed text byte for byte). Starts in the background; poll get_migration_status until completed or failed. A replayed token returns the same request. Free.',
    input: { connection_id: connectionId, sql: z.string(), approval_token: z.string() },
    call: (a) => ({ handler: 'migrations-execute', body: { connection_id: a.connection_id, sql: a.sql, approval_token: a.approval_token } }),
    summarize: (x) => `Migration request ${d(x).request_id} is ${d(x).status}; poll get_migration_status.`,
  }),
  tool({
    name: 'get_migration_status',
    annotations: READ,
    description: 'Status, progress and result of a migration request. Free.',
    input: { request_id: z.string().describe('Migration request id (UUID)') },
    call: (a) => ({ handler: 'migrations-request-get', params: { request_id: a.request_id } }),
    summarize: (x) => `Migration request ${d(x).request_id ?? d(x).id ?? ''} is ${d(x).status}.`,
  }),
  tool({
    name: 'optimize_query',
    annotations: READ,
    description:
      'Execution plan, ranked rewrites and index recommendations for a query; analyze=true runs EXPLAIN ANALYZE for real timings when the statement passes the strict guardrail (otherwise a plain EXPLAIN, and analyze_skipped says why). Billable.',
    input: { connection_id: connectionId, sql: z.string(), analyze: z.boolean().optional() },
    call: (a) => ({
      handler: 'queries-optimize',
      params: { connection_id: a.connection_id },
      body: { sql: a.sql },
      ...(a.analyze === undefined ? {} : { query: { analyze: String(a.analyze) } }),
    }),
    summarize: () => 'Query optimized: see plan, rewrites and index recommendations.',
  }),
  tool({
    name: 'generate_sql',
    annotations: READ,
    description: 'Turn a natural-language question into SQL, validate it, run it read-only and return the rows as a markdown table. Billable.',
    input: {
      connection_id: connectionId,
      query: z.string().describe('The question in plain language'),
      max_schema_chunks: z.number().int().optional(),
      max_doc_chunks: z.number().int().optional(),
    },
    call: (a) => ({
      handler: 'queries-generate',
      params: { connection_id: a.connection_id },
      body: { query: a.query, max_schema_chunks: a.max_schema_chunks, max_doc_chunks: a.max_doc_chunks },
    }),
    summarize: (x) => `Generated SQL: ${d(x).sql ?? d(x).generated_sql ?? '(see JSON)'}`,
  }),
  tool({
    name: 'execute_sql',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    description:
      "Run SQL on a connection as an agent caller, held to a guardrail level (default strict: read-only). Levels above strict need an API key whose owner's policy grants them. Billable.",
    input: {
      connection_id: connectionId,
      sql: z.string(),
      guardrail: z.enum(['strict', 'moderate', 'permissive']).optional().describe("Default strict; at most the key policy's max_guardrail"),
      row_limit: z.number().int().optional(),
      timeout_seconds: z.number().optional(),
    },
    call: (a) => ({
      handler: 'sql-execute',
      // Always an agent: the guardrail cannot be skipped by calling as a human through MCP.
      body: {
        connection_id: a.connection_id,
        sql: a.sql,
        caller: 'agent',
        guardrail: a.guardrail ?? 'strict',
        row_limit: a.row_limit,
        timeout_seconds: a.timeout_seconds,
      },
    }),
    summarize: (x) => `SQL ran${d(x).row_count !== undefined ? `: ${d(x).row_count} rows` : ''}.`,
  }),
] as const;

export interface ToolOptions {
  /** Only the tools whose annotations say read-only (a read-only MCP connection). */
  readOnly?: boolean;
}

/** The tools a server offers: all of them, or the read-only ones. */
export const toolsFor = (options: ToolOptions = {}): readonly ToolDefinition<z.ZodRawShape>[] =>
  (TOOLS as readonly ToolDefinition<z.ZodRawShape>[]).filter((t) => !options.readOnly || t.annotations.readOnlyHint);

/** Registers the tools on `server`, each running its route through `caller`. */
export function registerDbopsTools(server: McpServer, caller: RouteCaller, options: ToolOptions = {}): void {
  for (const t of toolsFor(options)) {
    server.registerTool(t.name, { description: t.description, inputSchema: t.input, annotations: t.annotations }, async (args: unknown) =>
      toToolResult(await caller(t.call(args as never)), t.summarize),
    );
  }
}
