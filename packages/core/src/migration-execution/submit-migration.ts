import { sqlDigest, verifyApprovalToken } from '../analysis/approval/approval-token';
import type { CoreDeps } from '../deps';
import { AppError } from '../errors/app-error';
import type { MigrationQueue } from '../queue/migration-queue';
import { executionSettings } from './execution-settings';
import type { RequestStatus } from './request-record';
import { createOrReplayRequest } from './request-store';
import { sweepLostRequests } from './sweep-lost-requests';

export interface SubmitInput {
  userId: string;
  approvalToken: string;
  sql: string;
  connectionId: string;
}

export interface SubmitPorts {
  /** HMAC key of approval tokens. */
  signingKey: string;
  queue: MigrationQueue;
  /** Throws NOT_FOUND unless the connection is the caller's and active. */
  assertConnection(userId: string, connectionId: string): Promise<void>;
}

/**
 * Step two of the safety model: accepts a migration only with the approval token of its
 * analysis, for exactly that SQL, connection and user, records it `pending` and enqueues it.
 * A token already used answers its existing request (idempotent replay).
 */
export async function submitMigration(
  deps: CoreDeps,
  ports: SubmitPorts,
  input: SubmitInput,
): Promise<{ request_id: string; status: RequestStatus; created: boolean }> {
  const now = deps.clock.now();
  const claims = verifyApprovalToken(input.approvalToken, { secret: ports.signingKey, now });
  if (claims.uid !== input.userId) {
    throw new AppError('TOKEN_INVALID', 'Approval token was issued to another user; analyze the migration again to get a new one.');
  }
  const differs: string[] = [];
  if (claims.sql !== sqlDigest(input.sql)) differs.push('sql');
  if (claims.cid !== input.connectionId) differs.push('connection_id');
  if (differs.length > 0) {
    const what = differs.map((f) =>
      f === 'sql'
        ? '`sql` differs from the analyzed text (it must match byte for byte)'
        : '`connection_id` differs from the connection the token was issued for',
    );
    throw new AppError('TOKEN_MISMATCH', `${what.join('; ')}.`, { details: { mismatched_fields: differs } });
  }
  await ports.assertConnection(input.userId, input.connectionId);

  const settings = executionSettings(deps.settings);
  await sweepLostRequests(deps.store, { now, pendingTimeoutMs: settings.pendingTimeoutMs, scope: { connectionId: input.connectionId }, queue: ports.queue });
  const { row, created } = await createOrReplayRequest(deps.store, {
    userId: input.userId,
    connectionId: input.connectionId,
    nonce: claims.nonce,
    sql: input.sql,
    sqlSha256: claims.sql,
    now,
  });
  // A replay of a still-pending request enqueues it again: this heals an enqueue that failed,
  // and is harmless otherwise because only one delivery can claim a pending request.
  if (row.status === 'pending') {
    try {
      await ports.queue.enqueue({ requestId: row.id });
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The migration was recorded but could not be queued; send the same request again to resubmit it.', {
        details: { request_id: row.id },
        cause: error,
      });
    }
  }
  return { request_id: row.id, status: row.status, created };
}
