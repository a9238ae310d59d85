import { approvalSigningKey } from '@dbops/core/analysis';
import { issueApprovalToken } from '@dbops/core/analysis';
import { domainDeps } from '@dbops/functions/runtime';
import type { TestRuntime } from './test-runtime';

/** The internal user id that owns a connection (approval tokens carry it). */
export async function ownerOf(t: TestRuntime, connectionId: string): Promise<string> {
  const res = await t.runtime.container.store.query<{ user_id: string }>('SELECT user_id FROM connections WHERE id = $1', [connectionId]);
  if (!res.rows[0]) throw new Error(`no connection ${connectionId}`);
  return res.rows[0].user_id;
}

/**
 * An approval token as analysis issues it: signed with the runtime's own key for `sql` on the
 * connection, for the connection's owner unless `userId` says otherwise.
 */
export async function issueToken(
  t: TestRuntime,
  connectionId: string,
  sql: string,
  options: { userId?: string; now?: Date; secret?: string } = {},
): Promise<string> {
  const secret = options.secret ?? (await approvalSigningKey(domainDeps(t.runtime.container).secrets));
  const userId = options.userId ?? (await ownerOf(t, connectionId));
  return issueApprovalToken({ userId, connectionId, sql }, { secret, now: options.now ?? t.runtime.container.clock.now() }).token;
}

/** Polls GET /migrations/requests/{id} until the request is completed or failed. */
export async function waitForRequest(t: TestRuntime, apiKey: string, requestId: string, timeoutMs = 20_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request('GET', `/migrations/requests/${requestId}`, { apiKey });
    if (res.status !== 200) throw new Error(`poll failed: ${res.status} ${res.text}`);
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    if (Date.now() > deadline) throw new Error(`request ${requestId} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls until the request reaches `status` (e.g. executing). */
export async function waitForStatus(t: TestRuntime, apiKey: string, requestId: string, status: string, timeoutMs = 20_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request('GET', `/migrations/requests/${requestId}`, { apiKey });
    if (res.body?.status === status) return res.body;
    if (Date.now() > deadline) throw new Error(`request ${requestId} is ${res.body?.status}, not ${status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
