import type { RouteAnswer } from './route-call';

/** An MCP tool result: a short summary line, then the API's JSON for the agent to use. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: { code?: string; message?: string } | null;
  detail?: unknown;
}

/** Why a request failed, in one line: the envelope's code and message, 402's or 422's `detail`. */
function failureLine(answer: RouteAnswer): string {
  const b = (answer.body ?? {}) as Envelope;
  if (b.error?.code) return `${b.error.code}: ${b.error.message ?? ''}`.trim();
  if (typeof b.detail === 'string') return b.detail;
  if (Array.isArray(b.detail)) {
    return `Invalid input: ${b.detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')} ${d.msg ?? ''}`.trim()).join('; ')}`;
  }
  return `HTTP ${answer.status}`;
}

/**
 * Turns a route's answer into a tool result. Failures (HTTP >= 400, or an envelope with
 * `success: false` such as a failed text-to-SQL run) are `isError` results, not protocol errors,
 * so the agent can read why and correct itself.
 */
export function toToolResult(answer: RouteAnswer, summarize: (data: unknown) => string): ToolResult {
  const b = (answer.body ?? {}) as Envelope;
  const failed = answer.status >= 400 || b.success === false;
  const payload = b.success !== undefined && 'data' in b && !failed ? b.data : answer.body;
  let summary = failed ? `Failed (HTTP ${answer.status}). ${failureLine(answer)}` : summarize(payload);
  if (answer.creditsRemaining !== undefined) summary += ` Credits remaining: ${answer.creditsRemaining}.`;
  const content: ToolResult['content'] = [
    { type: 'text', text: summary },
    { type: 'text', text: JSON.stringify(payload ?? null, null, 2) },
  ];
  return failed ? { content, isError: true } : { content };
}
